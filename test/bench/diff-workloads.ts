/**
 * Edits for the diff comparison: a source file — generated (TypeScript-like blocks, with
 * the repeated lines real code has: `}`, blank lines, `return result;`) or a real one (a
 * pinned package's source in node_modules) — a V4A answer changing it, and the file the
 * answer must produce. Deterministic (seeded).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One workload: what the model was shown, what it streams, what must come out. */
export interface DiffWorkload {
  name: string;
  oldLines: string[];
  /** The whole answer, as the model streams it (see deltasOf). */
  answer: string;
  /** The file once every hunk is applied; also what a whole-file rewrite streams. */
  newLines: string[];
  /** Lines the edit really removes and adds (a minimal diff's size). */
  removed: number;
  added: number;
}

export interface WorkloadSpec {
  name: string;
  /** The generated file's length (a real file's is its own). */
  lines: number;
  hunks: number;
  /**
   * 'edit': a changed line and a new one; 'repeat': a changed line and 50 lines copied from
   * elsewhere in the file; 'feature' and 'refactor': mixes of what models write (see
   * featureChange, refactorChange).
   */
  kind: 'edit' | 'repeat' | 'feature' | 'refactor';
  /** A real file to edit instead of a generated one: a path from the project's root (a package pinned in package.json). */
  source?: string;
}

const CONTEXT = 3;
/** Lines a 'repeat' hunk copies from elsewhere in the file. */
const REPEATED_LINES = 50;
/** Where the answer's file is said to be. */
export const WORKLOAD_PATH = 'src/code.ts';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The answer cut in deltas of `size` characters (a token is ~4; providers often send a few at once). */
export function deltasOf(answer: string, size: number): string[] {
  const deltas: string[] = [];
  for (let offset = 0; offset < answer.length; offset += size) deltas.push(answer.slice(offset, offset + size));
  return deltas;
}

/** A seeded generator (mulberry32): the same workloads on every run. */
function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return (((mixed ^ (mixed >>> 14)) >>> 0) % below);
  };
}

/** Block `index` of the generated file: a function, an interface or a class. */
function block(index: number, random: (below: number) => number): string[] {
  const [a, b, c] = [random(90) + 10, random(90) + 10, random(90) + 10];
  switch (index % 3) {
    case 0:
      return [
        `export function compute${index}(input: number, limit = ${a}): number {`,
        `  const scaled = input * ${b} + ${index};`,
        '  if (scaled > limit) {',
        `    return limit - ${c};`,
        '  }',
        `  // step ${index}: keep the value within bounds`,
        `  const result = Math.min(scaled, ${a + b});`,
        '  return result;',
        '}',
        '',
      ];
    case 1:
      return [`/** Options of step ${index}. */`, `export interface Options${index} {`, '  name: string;', '  retries: number;', `  timeoutMs?: ${a}000;`, '}', ''];
    default:
      return [
        `export class Worker${index} {`,
        `  private count = ${a};`,
        '',
        '  run(items: readonly string[]): string[] {',
        '    this.count += items.length;',
        `    return items.map((item) => item + '-${index}');`,
        '  }',
        '}',
        '',
      ];
  }
}

function generatedFile(lines: number, random: (below: number) => number): string[] {
  const out: string[] = [];
  for (let index = 0; out.length < lines; index += 1) out.push(...block(index, random));
  return out.slice(0, lines);
}

/** A real file's lines (the whole of it, as the model is shown it). */
function realFile(source: string): string[] {
  const lines = readFileSync(`${ROOT}/${source}`, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Whether lines [at - CONTEXT, at + count + CONTEXT) occur only once in `lines` (so the hunk anchors exactly). */
function uniqueWindow(lines: readonly string[], at: number, count: number, generated: boolean): boolean {
  if (lines.slice(at, at + count).some((line) => line.trim() === '')) return false;
  const window = lines.slice(at - CONTEXT, at + count + CONTEXT);
  let found = 0;
  for (let start = 0; start + window.length <= lines.length; start += 1) {
    if (lines[start] !== window[0]) continue;
    if (window.every((line, offset) => lines[start + offset] === line)) found += 1;
  }
  // Generated blocks differ in their numbers only: a window without one is a copy of many.
  return found === 1 && (!generated || window.some((line) => /\d/.test(line)));
}

/** Changes the first number of a line, else renames its first word (a modified line, still close to the old one). */
function modified(line: string): string {
  if (/\d/.test(line)) return line.replace(/\d+/, (digits) => String(Number(digits) + 1));
  return /[A-Za-z_]\w{3,}/.test(line) ? line.replace(/[A-Za-z_]\w{3,}/, (word) => `${word}Next`) : `${line} // changed`;
}

export function buildWorkload(spec: WorkloadSpec): DiffWorkload {
  const random = seeded(spec.lines * 31 + spec.hunks);
  const oldLines = spec.source !== undefined ? realFile(spec.source) : generatedFile(spec.lines, random);
  const zone = Math.floor(oldLines.length / spec.hunks);
  const sections: string[] = [];
  const newLines: string[] = [];
  let copied = 0;
  let [removed, added] = [0, 0];
  for (let hunk = 0; hunk < spec.hunks; hunk += 1) {
    const count = removedCount(spec.kind, hunk);
    // Changed lines in the middle of their zone, whose context is unique in the file.
    let at = hunk * zone + CONTEXT + random(Math.max(1, zone - 2 * CONTEXT - count));
    while (!uniqueWindow(oldLines, at, count, spec.source === undefined)) at += 1;
    if (at + count - 1 + CONTEXT >= (hunk + 1) * zone) throw new Error(`no unique place for hunk ${hunk} of ${spec.name}`);
    const additions = additionsFor(spec.kind, oldLines, at, hunk, random);
    newLines.push(...oldLines.slice(copied, at), ...additions);
    copied = at + count;
    removed += count;
    added += additions.length;
    const context = (from: number, to: number): string[] => oldLines.slice(from, to).map((line) => ` ${line}`);
    const removals = oldLines.slice(at, at + count).map((line) => `-${line}`);
    sections.push(['@@', ...context(at - CONTEXT, at), ...removals, ...additions.map((line) => `+${line}`), ...context(at + count, at + count + CONTEXT)].join('\n'));
  }
  newLines.push(...oldLines.slice(copied));
  const answer = `Updating ${spec.hunks} places.\n*** Begin Patch\n*** Update File: ${WORKLOAD_PATH}\n${sections.join('\n')}\n*** End Patch\n`;
  return { name: spec.name, oldLines, answer, newLines, removed, added };
}

/** How many lines a hunk removes: one, but for the mixes. */
function removedCount(kind: WorkloadSpec['kind'], hunk: number): number {
  if (kind === 'feature') return [1, 1, 2, 3][hunk % 4]!;
  return kind === 'refactor' ? [1, 2, 1][hunk % 3]! : 1;
}

/** What a hunk puts in place of the lines at `at`. */
function additionsFor(kind: WorkloadSpec['kind'], lines: readonly string[], at: number, hunk: number, random: (below: number) => number): string[] {
  if (kind === 'edit') return [modified(lines[at]!), `  // reviewed in change ${hunk}`];
  if (kind === 'feature') return featureChange(lines, at, hunk);
  if (kind === 'refactor') return refactorChange(lines, at, hunk);
  // Copy-paste: a run of lines from anywhere in the file, before or after the hunk. (Of the
  // variants tried — 4, 50 or 400 lines; from anywhere, just before, just after — this is
  // among the closest races; a whole-file diff loses its alignment on it.)
  const from = random(lines.length - REPEATED_LINES);
  return [modified(lines[at]!), ...lines.slice(from, from + REPEATED_LINES)];
}

/**
 * A feature's edits, in turn: a line changed; a line changed and the lines around it
 * changed too; two lines removed; three lines rewritten as four, one of them new.
 */
function featureChange(lines: readonly string[], at: number, hunk: number): string[] {
  const indent = /^\s*/.exec(lines[at]!)![0];
  switch (hunk % 4) {
    case 0:
      return [modified(lines[at]!)];
    case 1:
      return [modified(lines[at]!), modified(lines[at - 1]!), modified(lines[at + 1]!)];
    case 2:
      return [];
    default:
      return [modified(lines[at]!), lines[at + 1]!, `${indent}// Kept in step with change ${hunk}.`, modified(lines[at + 2]!)];
  }
}

/** A refactor's edits (a rename, a call changed across the file), in turn: a line changed; two lines changed; a line removed. */
function refactorChange(lines: readonly string[], at: number, hunk: number): string[] {
  switch (hunk % 3) {
    case 0:
      return [modified(lines[at]!)];
    case 1:
      return [modified(lines[at]!), modified(lines[at + 1]!)];
    default:
      return [];
  }
}
