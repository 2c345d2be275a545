/**
 * Edits for the diff comparison: a generated source file (TypeScript-like blocks, with
 * the repeated lines real code has: `}`, blank lines, `return result;`), a V4A answer
 * changing it, and the file the answer must produce. Deterministic (seeded).
 */

/** One workload: what the model was shown, what it streams, what must come out. */
export interface DiffWorkload {
  name: string;
  oldLines: string[];
  /** The answer as the model streams it, in ~16-character deltas. */
  deltas: string[];
  /** The file once every hunk is applied; also what a whole-file rewrite streams. */
  newLines: string[];
  /** Lines the edit really removes and adds (a minimal diff's size). */
  removed: number;
  added: number;
}

export interface WorkloadSpec {
  name: string;
  lines: number;
  hunks: number;
  /** 'edit': a changed line and a new one; 'repeat': a changed line and 50 lines copied from elsewhere in the file. */
  kind: 'edit' | 'repeat';
}

const CONTEXT = 3;
/** Lines a 'repeat' hunk copies from elsewhere in the file. */
const REPEATED_LINES = 50;
const DELTA = 16;
const PATH = 'src/code.ts';

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

/** Whether lines [at - CONTEXT, at + CONTEXT] occur only once in `lines` (so the hunk anchors exactly). */
function uniqueWindow(lines: readonly string[], at: number): boolean {
  const window = lines.slice(at - CONTEXT, at + CONTEXT + 1);
  let found = 0;
  for (let start = 0; start + window.length <= lines.length; start += 1) {
    if (lines[start] !== window[0]) continue;
    if (window.every((line, offset) => lines[start + offset] === line)) found += 1;
  }
  return found === 1 && window.some((line) => /\d/.test(line));
}

/** Changes the first number of a line (a modified line, still close to the old one). */
function modified(line: string): string {
  return /\d/.test(line) ? line.replace(/\d+/, (digits) => String(Number(digits) + 1)) : `${line} // changed`;
}

export function buildWorkload(spec: WorkloadSpec): DiffWorkload {
  const random = seeded(spec.lines * 31 + spec.hunks);
  const oldLines = generatedFile(spec.lines, random);
  const zone = Math.floor(spec.lines / spec.hunks);
  const sections: string[] = [];
  const newLines: string[] = [];
  let copied = 0;
  let added = 0;
  for (let hunk = 0; hunk < spec.hunks; hunk += 1) {
    // A changed line in the middle of its zone, whose context is unique in the file.
    let at = hunk * zone + CONTEXT + random(Math.max(1, zone - 2 * CONTEXT - 1));
    while (oldLines[at] === '' || !uniqueWindow(oldLines, at)) at += 1;
    if (at + CONTEXT >= (hunk + 1) * zone) throw new Error(`no unique place for hunk ${hunk} of ${spec.name}`);
    const additions = additionsFor(spec.kind, oldLines, at, hunk, random);
    newLines.push(...oldLines.slice(copied, at), ...additions);
    copied = at + 1;
    added += additions.length;
    const context = (from: number, to: number): string[] => oldLines.slice(from, to).map((line) => ` ${line}`);
    sections.push(['@@', ...context(at - CONTEXT, at), `-${oldLines[at]}`, ...additions.map((line) => `+${line}`), ...context(at + 1, at + 1 + CONTEXT)].join('\n'));
  }
  newLines.push(...oldLines.slice(copied));
  const answer = `Updating ${spec.hunks} places.\n*** Begin Patch\n*** Update File: ${PATH}\n${sections.join('\n')}\n*** End Patch\n`;
  const deltas: string[] = [];
  for (let offset = 0; offset < answer.length; offset += DELTA) deltas.push(answer.slice(offset, offset + DELTA));
  return { name: spec.name, oldLines, deltas, newLines, removed: spec.hunks, added };
}

/** What a hunk puts in place of line `at`. */
function additionsFor(kind: WorkloadSpec['kind'], lines: readonly string[], at: number, hunk: number, random: (below: number) => number): string[] {
  if (kind === 'edit') return [modified(lines[at]!), `  // reviewed in change ${hunk}`];
  // Copy-paste: a run of lines from anywhere in the file, before or after the hunk. (Of the
  // variants tried — 4, 50 or 400 lines; from anywhere, just before, just after — this is
  // among the closest races; a whole-file diff loses its alignment on it.)
  const from = random(lines.length - REPEATED_LINES);
  return [modified(lines[at]!), ...lines.slice(from, from + REPEATED_LINES)];
}
