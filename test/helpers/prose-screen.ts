/**
 * The prose on screen, replayed from the parser's events as the renderer applies them: its
 * whole lines, then the tail (see src/shared/edits/prose-tail.ts).
 */
import { EditStreamParser } from '../../src/shared/edits/edit-stream-parser';
import type { EditEvent } from '../../src/shared/edits/edit-types';

/** What the screen shows of the prose, replayed from the events as the renderer applies them. */
export class Screen {
  lines = '';
  tail = '';
  files: string[] = [];
  apply(event: EditEvent): void {
    if (event.type === 'prose') {
      this.lines += `${event.text}\n`;
      this.tail = '';
    } else if (event.type === 'prose-partial') {
      this.tail = event.replace ? event.text : this.tail + event.text;
    } else if (event.type === 'file') this.files.push(event.path);
  }
  get text(): string {
    return this.lines + this.tail;
  }
}

/** Feeds `text` in pieces of `sizes` (cycled), calling `after` with the screen and the text fed so far after each. */
export function stream(text: string, sizes: readonly number[], after: (screen: Screen, fed: string) => void, truncated = false): Screen {
  const screen = new Screen();
  const parser = new EditStreamParser((event) => screen.apply(event));
  let offset = 0;
  for (let piece = 0; offset < text.length; piece += 1) {
    const size = sizes[piece % sizes.length]!;
    parser.push(text.slice(offset, offset + size));
    offset += size;
    after(screen, text.slice(0, offset));
  }
  parser.finish(truncated);
  return screen;
}

/** A line the tail must never show: a marker of either format, or a fence. */
export const MARKER_LINE = /^\s*(<{5,9} ?SEARCH|={5,9}\s*$|>{5,9} ?REPLACE|\*\*\* (Begin Patch|Update File:|Add File:|Delete File:)|```|~~~)/;

