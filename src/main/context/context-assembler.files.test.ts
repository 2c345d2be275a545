/**
 * Several files in one request (the file asked about and those named with `@path`): they
 * share the model's window fairly, keep their order, and a named file with no room is cut,
 * never the request refused.
 */
import { describe, expect, it } from 'vitest';
import { FlintFailure } from '../../shared/result';
import { assembleContext, type ContextFile, type ContextRequest } from './context-assembler';
import { LineTokenCache, estimateCounter } from './token-counter';

const codeLine = (index: number) => `  const value${index} = compute(${index}, "item-${index % 97}"); // step ${index % 13}`;
const file = (path: string, count: number, optional = false): ContextFile => ({
  path,
  lines: Array.from({ length: count }, (_, index) => codeLine(index)),
  recentChange: null,
  ...(optional ? { optional: true } : {}),
});

function request(files: ContextFile[], windowTokens = 128_000): ContextRequest {
  return { instructions: 'You are Flint.', outline: 'Project: demo', files, question: 'Why?', windowTokens, tokens: new LineTokenCache(estimateCounter) };
}

describe('assembleContext with several files', () => {
  it('sends every file whole, in the order given, when they fit', () => {
    const context = assembleContext(request([file('src/main.ts', 40), file('src/a.ts', 10, true), file('src/b.ts', 5, true)]));
    expect(context.windows.map((window) => [window.path, window.truncated])).toEqual([
      ['src/main.ts', false],
      ['src/a.ts', false],
      ['src/b.ts', false],
    ]);
    const headings = context.instructions.split('\n').filter((line) => line.startsWith('File: '));
    expect(headings).toEqual(['File: src/main.ts (TypeScript, 40 lines)', 'File: src/a.ts (TypeScript, 10 lines)', 'File: src/b.ts (TypeScript, 5 lines)']);
    expect(context.cut).toEqual([]);
  });

  it('gives a huge file only what the small ones leave, so they still go whole', () => {
    // About 25 tokens a line: the huge file alone would fill a 16K window.
    const context = assembleContext(request([file('src/huge.ts', 5_000), file('src/small.ts', 30, true)], 16_000));
    const [huge, small] = context.windows;
    expect(small).toMatchObject({ path: 'src/small.ts', truncated: false, endLine: 30 });
    expect(huge).toMatchObject({ path: 'src/huge.ts', truncated: true, startLine: 1 });
    expect(context.tokens).toBeLessThanOrEqual(16_000);
  });

  it('splits the room evenly between files that are all too large', () => {
    const context = assembleContext(request([file('a.ts', 5_000, true), file('b.ts', 5_000, true)], 16_000));
    const [a, b] = context.windows;
    expect(a!.truncated && b!.truncated).toBe(true);
    // Even shares: the two windows differ by a few lines at most.
    expect(Math.abs(a!.endLine - b!.endLine)).toBeLessThanOrEqual(a!.endLine / 10);
    expect(context.tokens).toBeLessThanOrEqual(16_000);
  });

  it('cuts a named file that gets no room, and says which, rather than refusing the question', () => {
    // A window so small that after the frame of the first file nothing is left for a second.
    const files = [file('src/main.ts', 3), ...Array.from({ length: 40 }, (_, index) => file(`src/named-${index}.ts`, 400, true))];
    const context = assembleContext(request(files, 4_000));
    expect(context.windows[0]).toMatchObject({ path: 'src/main.ts', truncated: false });
    expect(context.cut.length).toBeGreaterThan(0);
    expect(context.cut.every((path) => path.startsWith('src/named-'))).toBe(true);
    expect(context.windows.length + context.cut.length).toBe(41);
    for (const path of context.cut) expect(context.instructions).not.toContain(`File: ${path} `);
    expect(context.tokens).toBeLessThanOrEqual(4_000);
  });

  it('still refuses a file the question is about (not named) that cannot fit at all', () => {
    const long = { path: 'one-line.min.js', lines: ['x'.repeat(200_000)], recentChange: null };
    expect(() => assembleContext(request([long], 4_000))).toThrow(FlintFailure);
  });

  it('leaves a single file exactly as it was before several files shared the room', () => {
    const alone = assembleContext(request([file('src/huge.ts', 5_000)], 16_000));
    expect(alone.windows).toHaveLength(1);
    expect(alone.windows[0]).toMatchObject({ startLine: 1, truncated: true });
    expect(alone.cut).toEqual([]);
  });
});
