import { describe, expect, it } from 'vitest';
import { decodeFileText, encodeFileText, spliceLines, spliceMany } from './file-text';

const bytes = (text: string) => new TextEncoder().encode(text);
// ignoreBOM keeps a BOM in the decoded text, so the comparison sees it.
const text = (data: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(data);

describe('file text', () => {
  it('round-trips any mix of line endings, a BOM and a missing final newline byte for byte', () => {
    for (const sample of ['', 'a', 'a\n', 'a\r\nb\nc', '\ufeffx\r\ny\r\n', '\n\n', 'é\r\n💥\n']) {
      const encoded = new TextEncoder().encode(sample);
      expect(text(encodeFileText(decodeFileText(encoded, 'f'))), JSON.stringify(sample)).toBe(sample);
    }
  });

  it('gives new lines the dominant ending and keeps untouched lines as they were', () => {
    const file = decodeFileText(bytes('one\r\ntwo\r\nthree\nfour\r\n'), 'f');
    expect(file.eol).toBe('\r\n');
    expect(text(encodeFileText(spliceLines(file, 1, 2, ['TWO', 'TWO-B'])))).toBe('one\r\nTWO\r\nTWO-B\r\nthree\nfour\r\n');
  });

  it('keeps a missing final newline missing, wherever the change lands', () => {
    const file = decodeFileText(bytes('a\nb'), 'f');
    expect(text(encodeFileText(spliceLines(file, 1, 2, ['B', 'C'])))).toBe('a\nB\nC');
    expect(text(encodeFileText(spliceLines(file, 2, 2, ['c'])))).toBe('a\nb\nc');
    expect(text(encodeFileText(spliceLines(file, 1, 2, [])))).toBe('a');
  });

  it('gives a line Flint made last its own ending back when a splice keeps it and adds lines after it', () => {
    // "two" ends CRLF in a mostly-LF file; removing the last line made it last (no newline).
    const made = spliceMany(decodeFileText(bytes('one\ntwo\r\nthree'), 'f'), [{ start: 2, end: 3, replacement: [] }]);
    expect(text(encodeFileText(made))).toBe('one\ntwo');
    expect(text(encodeFileText(spliceMany(made, [{ start: 1, end: 2, replacement: ['two', 'added'], sources: [1, null] }])))).toBe('one\ntwo\r\nadded');
  });

  it('puts back the endings a splice names for its lines', () => {
    const file = decodeFileText(bytes('a\nB\nc\n'), 'f');
    expect(text(encodeFileText(spliceMany(file, [{ start: 1, end: 2, replacement: ['b', 'b2'], endings: ['\r\n', '\n'] }])))).toBe('a\nb\r\nb2\nc\n');
  });

  it('refuses binary and non-UTF-8 files instead of re-encoding them', () => {
    expect(() => decodeFileText(new Uint8Array([0x61, 0, 0x62]), 'f.bin')).toThrow('binary');
    expect(() => decodeFileText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'f.txt')).toThrow('not UTF-8');
  });
});
