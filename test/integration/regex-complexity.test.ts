/**
 * Every regex in Flint's source runs in time linear in its subject, decided by a static
 * analysis (recheck), never by a clock.
 *
 * Model output, file text and window titles are untrusted and may hold a 200 KB run of one
 * character. A regex like `/\s+$/` retries from each character of such a run (quadratic:
 * one took 190 s); nested quantifiers are exponential. The work counters of the streaming
 * path (src/shared/work-meter.ts) count a regex test as its subject's length: this test is
 * what makes that true.
 */
import { parse } from '@babel/parser';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { checkSync, type Diagnostics } from 'recheck';
import { describe, expect, it } from 'vitest';

const SOURCE = join(import.meta.dirname, '..', '..', 'src');

/**
 * Files whose regexes may be polynomial (never exponential: a cap bounds polynomial work
 * only), and why that is safe there: their input is capped before any regex sees it. Each
 * entry must still have such a regex.
 */
const BOUNDED_INPUT: Record<string, string> = {
  'main/desktop/editor-titles.ts': 'a window title is cut to 1,000 characters first (MAX_TITLE_LENGTH; editor-titles.test.ts counts it)',
};

/** Regexes built at run time, by file, each a character class built from a table (linear): how many, and which. */
const BUILT_AT_RUN_TIME: Record<string, { count: number; why: string }> = {
  'shared/edits/anchor-hunk.ts': { count: 1, why: 'PUNCTUATION_PATTERN, a character class of the typographic characters' },
  'shared/paths.ts': { count: 1, why: 'LOOKALIKE, a character class of the letters that look like g, i and t' },
};

interface FoundRegex {
  file: string;
  line: number;
  pattern: string | null;
  flags: string;
}

async function regexesOf(file: string): Promise<FoundRegex[]> {
  const text = await readFile(join(SOURCE, file), 'utf8');
  const ast = parse(text, { sourceType: 'module', plugins: ['typescript', 'jsx'] });
  const found: FoundRegex[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const typed = node as { type?: string; pattern?: string; flags?: string; callee?: { name?: string }; arguments?: unknown[]; loc?: { start: { line: number } } };
    if (typed.type === 'RegExpLiteral') found.push({ file, line: typed.loc!.start.line, pattern: typed.pattern!, flags: typed.flags ?? '' });
    if ((typed.type === 'NewExpression' || typed.type === 'CallExpression') && typed.callee?.name === 'RegExp') {
      const [source, flags] = (typed.arguments ?? []) as Array<{ type?: string; value?: string } | undefined>;
      const literal = (argument: typeof source) => (argument?.type === 'StringLiteral' ? argument.value! : null);
      found.push({ file, line: typed.loc!.start.line, pattern: literal(source), flags: literal(flags) ?? '' });
    }
    for (const [key, value] of Object.entries(typed)) if (key !== 'loc' && value !== null && typeof value === 'object') visit(value);
  };
  visit(ast.program);
  return found;
}

/** What recheck found: `linear`, `polynomial`, `exponential`, or why it could not tell. */
function complexityOf(verdict: Diagnostics): string {
  if (verdict.status === 'unknown') return `unknown: ${verdict.error.kind}`;
  return verdict.complexity.type;
}

async function productionFiles(): Promise<string[]> {
  const entries = await readdir(SOURCE, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => relative(SOURCE, join(entry.parentPath, entry.name)))
    .sort();
}

describe('regexes in src/', () => {
  it('are all linear (recheck), except in files whose input is capped first', { timeout: 120_000 }, async () => {
    const superLinear: string[] = [];
    const dynamic: Record<string, number> = {};
    const boundedSeen = new Set<string>();
    let checked = 0;
    for (const file of await productionFiles()) {
      for (const regex of await regexesOf(file)) {
        if (regex.pattern === null) {
          dynamic[file] = (dynamic[file] ?? 0) + 1;
          continue;
        }
        checked += 1;
        // The automaton checker (a proof, not a fuzzer's search), no time limit: the verdict depends on the regex only.
        const verdict = checkSync(regex.pattern, regex.flags, { checker: 'automaton', timeout: null });
        if (verdict.status === 'safe') continue;
        if (file in BOUNDED_INPUT && complexityOf(verdict) === 'polynomial') boundedSeen.add(file);
        else superLinear.push(`${file}:${regex.line} /${regex.pattern}/${regex.flags}: ${verdict.status} (${complexityOf(verdict)})`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(superLinear).toEqual([]);
    // The allowances are exactly what the source needs: none stale, none missing.
    expect([...boundedSeen].sort()).toEqual(Object.keys(BOUNDED_INPUT).sort());
    expect(dynamic).toEqual(Object.fromEntries(Object.entries(BUILT_AT_RUN_TIME).map(([file, { count }]) => [file, count])));
  });

  it('tells a linear regex from the quadratic and exponential ones this test exists for', () => {
    const verdict = (pattern: string) => complexityOf(checkSync(pattern, '', { checker: 'automaton', timeout: null }));
    expect(verdict('^<{5,9} ?SEARCH>?\\s*$')).toBe('linear');
    // The trailing-class regex that took 75 s on a run of `*`, and the one that took 190 s on spaces.
    expect(verdict('[*_`\\s]+$')).toBe('polynomial');
    expect(verdict('(.*?)\\s*$')).toBe('polynomial');
    expect(verdict('^(a+)+$')).toBe('exponential');
  });
});
