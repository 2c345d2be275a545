import { beforeAll, describe, expect, it } from 'vitest';
import { FlintFailure } from '../../shared/result';
import { assembleContext, outputReserve, type ContextFile, type ContextRequest } from './context-assembler';
import { describeChange, type RecentChange } from './recent-change';
import { LineTokenCache, estimateCounter, loadO200kCounter, type TokenCounter } from './token-counter';

const INSTRUCTIONS = 'You are Flint, a coding assistant. Answer briefly.';
const OUTLINE = 'Project: demo\nTop-level folders: src/ (3 files); 1 file at the root.\nLanguages: TypeScript 100%.';
const QUESTION = 'Why does this loop never end?';

const smallFile = ['export function add(a: number, b: number): number {', '  return a + b;', '}'];

/** Code-like lines, all different, so the tokenizer and the cache both have real work. */
const codeLine = (index: number) => `  const value${index} = compute(${index}, "item-${index % 97}"); // step ${index % 13}`;

function request(overrides: Partial<ContextRequest> = {}): ContextRequest {
  return {
    instructions: INSTRUCTIONS,
    outline: OUTLINE,
    files: [{ path: 'src/math.ts', lines: smallFile, recentChange: null }],
    question: QUESTION,
    windowTokens: 128_000,
    tokens: new LineTokenCache(estimateCounter),
    ...overrides,
  };
}

function changed(before: readonly string[], after: readonly string[]): RecentChange {
  const change = describeChange(before, after);
  if (!change) throw new Error('expected a change');
  return change;
}

/** The lines of one file's section in the stable part: heading, opening fence, body, closing fence. */
function fileSection(instructions: string, path: string): { heading: string; fence: string; lines: string[] } {
  const all = instructions.split('\n');
  const headingIndex = all.findIndex((line) => line.startsWith(`File: ${path}`));
  expect(headingIndex, `no section for ${path}`).toBeGreaterThanOrEqual(0);
  const opening = all[headingIndex + 1]!;
  const fence = /^`+/.exec(opening)![0];
  const closingIndex = all.indexOf(fence, headingIndex + 2);
  expect(closingIndex, 'no closing fence').toBeGreaterThan(headingIndex);
  return { heading: all[headingIndex]!, fence: opening, lines: all.slice(headingIndex + 2, closingIndex) };
}

const elision = (from: number, to: number) => `… (lines ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} not shown) …`;

describe('assembleContext', () => {
  let o200k: TokenCounter;

  beforeAll(async () => {
    o200k = await loadO200kCounter();
  });

  it('puts the instructions, then the outline, then the file in the stable part, and ends the turn with the question', () => {
    const context = assembleContext(request());
    expect(context.instructions.startsWith(`${INSTRUCTIONS}\n\n${OUTLINE}\n\nFile: src/math.ts`)).toBe(true);
    expect(context.input.endsWith(QUESTION)).toBe(true);
    expect(context.input).toBe(`Request: ${QUESTION}`);
  });

  it('keeps the question and the recent change out of the stable part, so it can be cached across questions', () => {
    const after = [...smallFile];
    after[1] = '  return a - b;';
    const context = assembleContext(request({ files: [{ path: 'src/math.ts', lines: after, recentChange: changed(smallFile, after) }] }));
    expect(context.instructions).not.toContain(QUESTION);
    expect(context.instructions).not.toContain('```diff');
    const other = assembleContext(request({ question: 'Something else entirely?', files: [{ path: 'src/math.ts', lines: after, recentChange: changed(smallFile, after) }] }));
    expect(other.instructions).toBe(context.instructions);
  });

  it('leaves the outline out when there is no project', () => {
    const context = assembleContext(request({ outline: null }));
    expect(context.instructions.startsWith(`${INSTRUCTIONS}\n\nFile: src/math.ts`)).toBe(true);
  });

  it('sends a small file whole, fenced and headed with its language and length', () => {
    const context = assembleContext(request());
    expect(context.windows).toEqual([{ path: 'src/math.ts', startLine: 1, endLine: 3, totalLines: 3, truncated: false }]);
    const section = fileSection(context.instructions, 'src/math.ts');
    expect(section.heading).toBe('File: src/math.ts (TypeScript, 3 lines)');
    expect(section.fence).toBe('```ts');
    expect(section.lines).toEqual(smallFile);
    expect(context.instructions).not.toContain('not shown');
    expect(context.tokenCounting).toBe(estimateCounter.method);
  });

  it('says "1 line" for a one-line file and leaves out a language it does not know', () => {
    const context = assembleContext(request({ files: [{ path: 'notes.unknown', lines: ['just one'], recentChange: null }] }));
    expect(fileSection(context.instructions, 'notes.unknown').heading).toBe('File: notes.unknown (1 line)');
  });

  it('sends every file it is given, in order', () => {
    const context = assembleContext(
      request({
        files: [
          { path: 'src/a.py', lines: ['a = 1'], recentChange: null },
          { path: 'src/b.py', lines: ['b = 2'], recentChange: null },
        ],
      }),
    );
    expect(context.instructions.indexOf('File: src/a.py')).toBeLessThan(context.instructions.indexOf('File: src/b.py'));
    expect(context.windows.map((window) => window.path)).toEqual(['src/a.py', 'src/b.py']);
  });

  describe.each([
    ['the o200k tokenizer', () => loadO200kCounter()],
    ['the estimate', async () => estimateCounter],
  ])('a file far larger than the window, counted with %s', (_name, counter) => {
    const before = Array.from({ length: 20_000 }, (_, index) => codeLine(index));
    const after = [...before];
    after[12_344] = '  while (true) { retry(); }';
    after.splice(12_346, 0, '  // added by the user', '  log("retrying");');
    const change = changed(before, after);
    const windowTokens = 8_000;
    let tokens: LineTokenCache;

    beforeAll(async () => {
      tokens = new LineTokenCache(await counter());
    });

    const assemble = () => assembleContext(request({ files: [{ path: 'src/big.ts', lines: after, recentChange: change }], windowTokens, tokens }));

    it('uses most of the room it has, counted by the counter it was given', () => {
      const context = assemble();
      const counted = tokens.text(context.instructions) + tokens.text(context.input);
      expect(counted).toBeGreaterThan((windowTokens - outputReserve(windowTokens)) * 0.75);
      expect(context.tokens).toBeLessThanOrEqual(windowTokens - outputReserve(windowTokens));
    });

    it('shows a window that contains the changed lines and says which lines are left out', () => {
      const context = assemble();
      const [window] = context.windows;
      expect(window).toMatchObject({ path: 'src/big.ts', totalLines: after.length, truncated: true });
      expect(window!.startLine).toBeLessThanOrEqual(change.lines.startLine);
      expect(window!.endLine).toBeGreaterThanOrEqual(change.lines.endLine);
      expect(window!.startLine).toBeGreaterThan(1);
      expect(window!.endLine).toBeLessThan(after.length);

      const section = fileSection(context.instructions, 'src/big.ts');
      expect(section.heading).toBe(
        `File: src/big.ts (TypeScript, 20,002 lines, lines ${window!.startLine.toLocaleString('en-US')}–${window!.endLine.toLocaleString('en-US')} shown; the rest did not fit)`,
      );
      expect(section.lines[0]).toBe(elision(1, window!.startLine - 1));
      expect(section.lines.at(-1)).toBe(elision(window!.endLine + 1, 20_002));
    });

    it('sends whole lines only, exactly as they are in the file', () => {
      const context = assemble();
      const [window] = context.windows;
      const body = fileSection(context.instructions, 'src/big.ts').lines.slice(1, -1);
      expect(body).toEqual(after.slice(window!.startLine - 1, window!.endLine));
    });

    it('centres the window on the change', () => {
      const [window] = assemble().windows;
      const above = change.lines.startLine - window!.startLine;
      const below = window!.endLine - change.lines.endLine;
      expect(Math.abs(above - below)).toBeLessThanOrEqual(2);
    });
  });

  it('keeps a truncated request within the window less the room for the answer, by the estimate it counts with', () => {
    const lines = Array.from({ length: 20_000 }, (_, index) => codeLine(index));
    const windowTokens = 8_000;
    const context = assembleContext(request({ files: [{ path: 'src/big.ts', lines, recentChange: null }], windowTokens }));
    expect(context.windows[0]).toMatchObject({ startLine: 1, truncated: true });
    expect(estimateCounter.count(context.instructions) + estimateCounter.count(context.input)).toBeLessThanOrEqual(windowTokens - outputReserve(windowTokens));
  });

  it('keeps a truncated request within the budget by the real o200k count, and reports an upper bound of it', async () => {
    const o200k = await loadO200kCounter();
    // Short lines make the frame (heading, fences, elision marks) weigh the most against the lines.
    for (const lines of [Array.from({ length: 20_000 }, (_, index) => String(index)), Array.from({ length: 20_002 }, (_, index) => codeLine(index))]) {
      const windowTokens = 8_000;
      const recentChange = changed(lines, lines.map((line, index) => (index === 10_000 ? `${line} // edited` : line)));
      const edited = lines.map((line, index) => (index === 10_000 ? `${line} // edited` : line));
      for (const file of [{ path: 'src/big.ts', lines, recentChange: null }, { path: 'src/big.ts', lines: edited, recentChange }]) {
        const context = assembleContext(request({ instructions: 'You are Flint.', outline: null, question: 'Why?', files: [file], windowTokens, tokens: new LineTokenCache(o200k) }));
        const real = o200k.count(context.instructions) + o200k.count(context.input);
        expect(real).toBeLessThanOrEqual(windowTokens - outputReserve(windowTokens));
        expect(context.tokens).toBeGreaterThanOrEqual(real);
      }
    }
  });

  it('puts the recent change in the turn as a diff, before the question, and asks to focus on its lines', () => {
    const before = Array.from({ length: 30 }, (_, index) => codeLine(index));
    const after = [...before];
    after[9] = '  const edited = true;';
    const context = assembleContext(request({ files: [{ path: 'src/app.ts', lines: after, recentChange: changed(before, after) }] }));
    expect(context.input).toContain('The user just saved src/app.ts.');
    expect(context.input).toMatch(/```diff\n--- a\/src\/app\.ts\n\+\+\+ b\/src\/app\.ts\n@@ -7,7 \+7,7 @@\n/);
    expect(context.input).toContain(`-${before[9]}\n+  const edited = true;`);
    expect(context.input).toContain('Focus on those lines (line 10) unless the request says otherwise.');
    expect(context.input.indexOf('```diff')).toBeLessThan(context.input.indexOf(`Request: ${QUESTION}`));
    expect(context.input.endsWith(`Request: ${QUESTION}`)).toBe(true);
  });

  it('names a line range when the change spans several lines', () => {
    const before = Array.from({ length: 30 }, (_, index) => codeLine(index));
    const after = [...before];
    after[4] = 'first';
    after[20] = 'second';
    const context = assembleContext(request({ files: [{ path: 'src/app.ts', lines: after, recentChange: changed(before, after) }] }));
    expect(context.input).toContain('Focus on those lines (lines 5–21)');
  });

  it('refuses a question larger than a quarter of the window with a too-large failure', () => {
    const windowTokens = 4_000;
    // 1,001 estimated tokens: one over the quarter.
    const question = 'x'.repeat(3_003);
    let failure: unknown;
    try {
      assembleContext(request({ question, windowTokens }));
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(FlintFailure);
    expect((failure as FlintFailure).code).toBe('too-large');
    expect((failure as FlintFailure).message).toContain('1,000');
  });

  it('accepts a question of exactly a quarter of the window', () => {
    expect(() => assembleContext(request({ question: 'x'.repeat(3_000), windowTokens: 4_000 }))).not.toThrow();
  });

  it('refuses a file whose first line alone does not fit', () => {
    const file: ContextFile = { path: 'dist/bundle.js', lines: ['x'.repeat(1_000_000), 'y'], recentChange: null };
    expect(() => assembleContext(request({ files: [file], windowTokens: 8_000 }))).toThrow(expect.objectContaining({ code: 'too-large' }));
  });

  it('fences a file that contains code fences with a longer fence', () => {
    const lines = ['# Usage', '', '```js', 'run();', '```', '  `````', 'done'];
    const context = assembleContext(request({ files: [{ path: 'README.md', lines, recentChange: null }] }));
    const section = fileSection(context.instructions, 'README.md');
    expect(section.fence).toBe('``````md');
    expect(section.lines).toEqual(lines);
    expect(context.instructions.endsWith('\n``````')).toBe(true);
  });

  it('fences a diff that shows a code fence as context with a longer fence', () => {
    const before = ['# Title', '```', 'code', '```', 'text', 'end'];
    const after = [...before];
    after[2] = 'changed code';
    const context = assembleContext(request({ files: [{ path: 'doc.md', lines: after, recentChange: changed(before, after) }] }));
    expect(context.input).toContain('````diff\n');
    expect(context.input).toContain('\n````\nFocus on those lines');
  });

  it('reports an upper bound of the tokens it sends for a file that fits whole', () => {
    const lines = Array.from({ length: 200 }, (_, index) => codeLine(index));
    const context = assembleContext(request({ files: [{ path: 'src/app.ts', lines, recentChange: null }], tokens: new LineTokenCache(o200k) }));
    expect(context.windows[0]!.truncated).toBe(false);
    expect(context.tokens).toBeGreaterThanOrEqual(o200k.count(context.instructions) + o200k.count(context.input));
    expect(context.tokenCounting).toBe('o200k_base tokenizer');
  });
});
