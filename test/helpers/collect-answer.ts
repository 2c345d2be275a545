/**
 * Folds parser events into a whole `ParsedAnswer`: the shape the parser tests compare.
 *
 * Test-only, so it lives in test/ and never ships in the app bundle.
 */
import { EditStreamParser } from '../../src/shared/edits/edit-stream-parser';
import type { EditEvent, EditStreamParserOptions, ParsedAnswer, ParsedFile, ParsedHunk } from '../../src/shared/edits/edit-types';

export class AnswerCollector {
  private readonly answer: ParsedAnswer = { prose: [], files: [], problems: [], truncated: false };
  private readonly hunks = new Map<number, ParsedHunk>();

  readonly accept = (event: EditEvent): void => {
    switch (event.type) {
      case 'prose':
        this.answer.prose.push(event.text);
        return;
      case 'file':
        this.answer.files[event.fileIndex] = { operation: event.operation, format: event.format, path: event.path, hunks: [] } satisfies ParsedFile;
        return;
      case 'move':
        this.answer.files[event.fileIndex]!.moveTo = event.to;
        return;
      case 'hunk-open': {
        const hunk: ParsedHunk = { hunkIndex: event.hunkIndex, contextHints: event.contextHints, atEndOfFile: false, lines: [], complete: false };
        this.hunks.set(event.hunkIndex, hunk);
        this.answer.files[event.fileIndex]!.hunks.push(hunk);
        return;
      }
      case 'hunk-hints':
        this.hunks.get(event.hunkIndex)!.contextHints = event.contextHints;
        return;
      case 'hunk-partial':
      case 'prose-partial':
        // A preview for the screen: never part of what the answer says.
        return;
      case 'hunk-line':
        this.hunks.get(event.hunkIndex)!.lines.push(event.line);
        return;
      case 'hunk-at-end':
        this.hunks.get(event.hunkIndex)!.atEndOfFile = true;
        return;
      case 'hunk-complete':
        this.hunks.get(event.hunkIndex)!.complete = true;
        return;
      case 'problem':
        this.answer.problems.push(event.message);
        return;
      case 'done':
        this.answer.truncated = event.truncated;
        return;
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  };

  get result(): ParsedAnswer {
    return this.answer;
  }
}

/** Parses a whole answer, fed in the given chunk sizes. */
export function parseAnswer(text: string, chunkSizes: readonly number[] = [text.length], truncated = false, options: EditStreamParserOptions = {}): ParsedAnswer {
  const collector = new AnswerCollector();
  const parser = new EditStreamParser(collector.accept, options);
  let offset = 0;
  let index = 0;
  while (offset < text.length) {
    const size = Math.max(1, chunkSizes[index % chunkSizes.length] ?? text.length);
    parser.push(text.slice(offset, offset + size));
    offset += size;
    index += 1;
  }
  parser.finish(truncated);
  return collector.result;
}
