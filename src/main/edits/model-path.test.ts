import { describe, expect, it } from 'vitest';
import { lexicalRefusal } from './model-path';

describe('lexicalRefusal', () => {
  it('accepts an ordinary path inside the project', () => {
    expect(lexicalRefusal('src/app.ts')).toBeNull();
    expect(lexicalRefusal('.github/workflows/ci.yml')).toBeNull();
    expect(lexicalRefusal('.gitignore')).toBeNull();
  });

  it('refuses .git as Linux spells it', () => {
    expect(lexicalRefusal('.git/config')).toBe('Refused: .git/config is inside .git; Flint never edits repository internals.');
    expect(lexicalRefusal('sub/.GIT/hooks/pre-commit')).toContain('is inside .git;');
  });

  it.each([
    ['a trailing space (Win32 strips it)', '.git /config'],
    ['a trailing dot (Win32 strips it)', '.git./config'],
    ['the 8.3 short name', 'GIT~1/config'],
    ['an NTFS stream suffix', '.git::$INDEX_ALLOCATION/config'],
    ['a zero-width joiner (HFS+ ignores it)', '.g\u200dit/config'],
    ['a zero-width space', '.gi\u200bt/config'],
    ['a Cyrillic i', '.g\u0456t/config'],
    ['a Greek tau', '.gi\u03c4/hooks/pre-commit'],
    ['fullwidth letters', '.\uff47\uff49\uff54/config'],
    ['mixed case, dots and a space', 'a/.GiT.. /config'],
    ['a decomposed Greek iota with tonos', '.g\u03b9\u0301t/config'],
  ])('refuses .git spelled with %s, as Windows or macOS would read it', (_how, path) => {
    expect(lexicalRefusal(path)).toMatch(/^Refused: .* is inside \.git \(Windows or macOS read that name as \.git\); Flint never edits repository internals\.$/);
  });

  it('refuses a path longer than any file system takes, in a short message', () => {
    expect(lexicalRefusal(`src/${'a'.repeat(4_092)}`)).toBeNull();
    expect(lexicalRefusal(`src/${'a'.repeat(1_000_000)}`)).toMatch(/^Refused: src\/a{196}… is 1000004 characters long; no file system takes such a path\.$/);
    expect(lexicalRefusal(`.git./${'a'.repeat(4_000)}`)!.length).toBeLessThan(400);
  });
});
