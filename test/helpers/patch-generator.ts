/**
 * Small projects, and model answers about them whose meaning is known: for each hunk, which
 * lines of which file it turns into what (PlannedHunk). Answers are rendered from that plan
 * in the V4A envelope or as search/replace blocks, in the variants real models write. The
 * oracle (patch-oracle.ts) computes the expected bytes from the plan alone: nothing here
 * shares code with Flint's parser, anchoring or splicing.
 *
 * A good hunk is unambiguous by construction: its old text occurs once in its file even
 * under a folding coarser than all of Flint's tolerances together (every whitespace dropped,
 * quotes, dashes, dots and non-ASCII folded to one mark, blank lines skipped). A bad hunk
 * (text not there or there twice, a path leaving the project, an Add onto an existing file…)
 * must never be accepted.
 */
import type { HunkLine } from '../../src/shared/edits/edit-types';

export type Random = () => number;
export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
/** The items in a random order. */
export const shuffled = <T>(random: Random, items: readonly T[]): T[] => items.map((item) => ({ item, key: random() })).sort((a, b) => a.key - b.key).map(({ item }) => item);

/** A line's terminator; '' only on a last line without a final newline. */
export type Ending = '\n' | '\r\n' | '';

/** A text file of the project: its lines and each line's own terminator, behind a BOM or not. */
export interface ProjectFile {
  path: string;
  bom: boolean;
  lines: string[];
  endings: Ending[];
}

/** One step of an update hunk over the original lines: keep line i, remove line i, or add a line. */
export type Op = { keep: number } | { remove: number } | { add: string };

/** A hunk line as the answer writes it; `bare`: a V4A empty context line written without its space. */
type WireLine = HunkLine & { bare?: boolean };

/** What one hunk of the answer means. */
export interface PlannedHunk {
  /** Flint's id for it: `1.<hunk index>`, or `1.move.<file index>` / `1.delete.<file index>`. */
  id: string;
  effect: 'update' | 'create' | 'delete' | 'move';
  /** The project path it acts on (before any move); the new file's, for a create. */
  path: string;
  /** An update's lines [start, end) of the original become what `ops` say. */
  start: number; end: number; ops: Op[];
  /** A move's destination (a create's lines are its `lines`). */
  moveTo?: string;
  /** Why it must never be accepted. */
  bad?: string;
  /** What the parser must report for it: Flint's operation (a search/replace create is an update) and lines. */
  operation: 'update' | 'add' | 'delete' | 'move';
  lines: WireLine[];
}

export interface Scenario {
  format: 'patch' | 'search-replace';
  files: ProjectFile[];
  hunks: PlannedHunk[];
  answer: string;
}

/** A file beside the project (in its parent folder) that bad hunks aim at; it must never change. */
export const OUTSIDE_NAME = 'outside.txt';
export const OUTSIDE_TEXT = 'secret = 1\ntoken = 2\n';

const PATHS = ['src/app.ts', 'src/util/format.ts', 'Makefile', 'README.md', 'src/index.ts', 'test/index.ts', 'lib/tool.py', 'notes.txt'];
const NEW_PATHS = ['src/added.ts', 'docs/new-page.md', 'CHANGELOG', 'scripts/build.sh', 'LICENSE'];
const LINE_KINDS: ReadonlyArray<(k: number) => string> = [
  (k) => `const value${k} = compute(${k}, 'a-b');`, (k) => `  return "item-${k}" + suffix;`, (k) => `// note ${k}: café — “quoted” naïve…`,
  (k) => `let total${k} = ${k};   `, (k) => `print("日本語 ${k} 🎉")`, (k) => `\tif (flag${k}) { run(${k}); }`, (k) => `    step${k}(); // wait... then go`,
  () => '}', () => '  return result;', () => '', () => '   ',
];
const REPEATED_BLOCK = ['  if (ready) {', '    start();', '  }'];
const PROSE = ['Here is the change.', 'Next, the second part:', 'This keeps the behaviour the same.', 'Done.', 'I also touched the helper below.'];

/** Draws a scenario: a project, and an answer about it in one format. `outsideAbsolute`: OUTSIDE_NAME's absolute path. */
export function generateScenario(random: Random, outsideAbsolute: string): Scenario {
  const paths = shuffled(random, PATHS).slice(0, between(random, 1, 4));
  const context: Context = { random, counter: 0, files: [], taken: new Set(paths) };
  context.files = paths.map((path) => makeFile(context, path));
  const format = random() < 0.5 ? 'patch' : 'search-replace';
  const sections = format === 'patch' ? planPatch(context, outsideAbsolute) : planBlocks(context, outsideAbsolute);
  const body = format === 'patch' ? renderPatch(random, sections) : renderBlocks(random, sections);
  const lines = [...(random() < 0.6 ? [pick(random, PROSE)] : []), ...body, ...(random() < 0.4 ? [pick(random, PROSE)] : [])];
  const eol = random() < 0.1 ? '\r\n' : '\n';
  const answer = lines.join(eol) + (random() < 0.85 ? eol : '');
  const hunks = sections.flatMap((section) => [...(section.move ? [section.move] : []), ...(section.whole ? [section.whole] : []), ...section.hunks.map((hunk) => hunk.plan)]);
  return { format, files: context.files, hunks, answer };
}

interface Context {
  random: Random;
  /** Numbers every generated line and token, so each is unique. */
  counter: number;
  files: ProjectFile[];
  /** Paths that exist, or that the answer creates or moves a file to. */
  taken: Set<string>;
}

function makeFile(context: Context, path: string): ProjectFile {
  const { random } = context;
  const lines = Array.from({ length: between(random, 4, 22) }, () => pick(random, LINE_KINDS)((context.counter += 1)));
  if (random() < 0.4) lines.splice(between(random, 0, lines.length), 0, ...REPEATED_BLOCK, `done${(context.counter += 1)}();`, ...REPEATED_BLOCK);
  const style = pick(random, ['lf', 'lf', 'crlf', 'mixed'] as const);
  const endings: Ending[] = lines.map(() => (style === 'crlf' || (style === 'mixed' && random() < 0.5) ? '\r\n' : '\n'));
  // No final newline (an empty last line cannot lack one: its bytes would be the previous line's newline).
  if (random() < 0.25 && lines.at(-1) !== '') endings[endings.length - 1] = '';
  return { path, bom: random() < 0.15, lines, endings };
}

/** Every line folded coarser than any tolerance of Flint's (see the header); '' for a blank line. */
function fold(line: string): string {
  return line.replace(/\s+/gu, '').replace(/[^\x20-\x7e]|['"`.\-]/gu, '~').replace(/~+/g, '~');
}

/** How often `needle` (original or as written) occurs in `file`, compared folded, blank lines skipped. */
function foldedCount(file: ProjectFile, needle: readonly string[]): number {
  const hay = file.lines.map(fold).filter((line) => line !== '');
  const wanted = needle.map(fold).filter((line) => line !== '');
  if (wanted.length === 0) return Infinity;
  let count = 0;
  for (let start = 0; start + wanted.length <= hay.length; start += 1) if (wanted.every((line, index) => hay[start + index] === line)) count += 1;
  return count;
}

/** A line as a model might misquote it in ways Flint tolerates: Unicode punctuation, spaces, trailing whitespace. */
function drifted(random: Random, text: string): string {
  const options: Array<(line: string) => string> = [];
  if (/['"-]|\.\.\./.test(text)) options.push((line) => line.replace(/'/g, '\u2019').replace(/"/g, '\u201c').replace(/-/g, pick(random, ['\u2013', '\u2014', '\u2212', '\u2011'])).replace(/\.\.\./g, '\u2026'));
  if (/[\u2014\u201c\u201d\u2026]/.test(text)) options.push((line) => line.replace(/\u2014/g, '-').replace(/[\u201c\u201d]/g, '"').replace(/\u2026/g, '...'));
  if (/\S \S/.test(text)) options.push((line) => line.replace(/(\S) (\S)/, '$1\u00a0$2'));
  options.push(/\s$/.test(text) ? (line) => line.trimEnd() : (line) => `${line}${pick(random, ['  ', '\t', ' '])}`);
  return pick(random, options)(text);
}

/** Lines [start, end) of `file` overlapping none of `used` (touching is fine: adjacent hunks), whose old text has one place. */
function freeRegion(context: Context, file: ProjectFile, used: Array<[number, number]>): [number, number] | null {
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const start = between(context.random, 0, file.lines.length - 1);
    const end = Math.min(file.lines.length, start + between(context.random, 1, 4));
    if (used.some(([from, to]) => start < to && end > from)) continue;
    if (foldedCount(file, file.lines.slice(start, end)) === 1) return [start, end];
  }
  return null;
}

function addedLine(context: Context): string {
  const k = (context.counter += 1);
  return pick(context.random, [`const added${k} = 'new-${k}';`, `  added${k}(); // neu ✓`, '', `\tadded${k} += 1;  `]);
}

/**
 * A good update hunk: keeps or removes each line of a free region, adds lines between, some
 * old lines misquoted. Search/replace has no context lines: a kept line is written on both
 * sides, so a misquoted one is replaced by the misquote (the model's text).
 */
function goodUpdate(context: Context, file: ProjectFile, used: Array<[number, number]>, format: Scenario['format']): PlannedHunk | null {
  const { random } = context;
  const region = freeRegion(context, file, used);
  if (region === null) return null;
  used.push(region);
  const [start, end] = region;
  const drift = random() < 0.35;
  const ops: Op[] = [];
  const wire: WireLine[] = [];
  for (let index = start; index <= end; index += 1) {
    const adds = random() < (index === end ? 0.5 : 0.3) ? between(random, 1, 2) : 0;
    for (let add = 0; add < adds; add += 1) ops.push({ add: addedLine(context) });
    if (index === end) break;
    const text = file.lines[index]!;
    const written = drift && text.trim() !== '' && random() < 0.6 ? drifted(random, text) : text;
    const keep = random() < 0.5;
    if (!keep) ops.push({ remove: index });
    else if (format === 'search-replace' && written !== text) ops.push({ remove: index }, { add: written });
    else ops.push({ keep: index });
    wire.push({ kind: keep ? 'context' : 'remove', text: written });
  }
  if (!ops.some((op) => !('keep' in op))) ops.push({ add: addedLine(context) });
  if (end === file.lines.length) endNonBlank(context, file, ops);
  return planned('update', file.path, { start, end, ops, lines: wireFor(format, file, ops, wire, random) });
}

/** No blank last line in a file without a final newline: it reads back a line short (a known Flint issue, kept out of this test). */
function endNonBlank(context: Context, file: ProjectFile, ops: Op[]): void {
  const last = ops.filter((op) => !('remove' in op)).at(-1);
  const text = last === undefined ? '' : 'add' in last ? last.add : 'keep' in last ? file.lines[last.keep]! : '';
  if (file.endings.at(-1) === '' && text === '') ops.push({ add: `tail${(context.counter += 1)}();` });
}

/** The lines the parser must report: V4A interleaves them; search/replace is every old line, then every new one. */
function wireFor(format: Scenario['format'], file: ProjectFile, ops: readonly Op[], old: readonly WireLine[], random: Random): WireLine[] {
  if (format === 'search-replace') {
    const replace = ops.flatMap((op): WireLine[] => ('add' in op ? [{ kind: 'add', text: op.add }] : 'keep' in op ? [{ kind: 'add', text: file.lines[op.keep]! }] : []));
    return [...old.map((line): WireLine => ({ kind: 'remove', text: line.text })), ...replace];
  }
  let next = 0;
  const lines = ops.map((op): WireLine => ('add' in op ? { kind: 'add', text: op.add } : old[next++]!));
  // A bare empty context line is one the next line of the hunk proves a line (so never last).
  return lines.map((line, index) => (line.kind === 'context' && line.text === '' && index < lines.length - 1 && random() < 0.4 ? { ...line, bare: true } : line));
}

/** A planned hunk of `effect` on `path`: its region and ops, lines, destination or badness in `extra`. */
function planned(effect: PlannedHunk['effect'], path: string, extra: Partial<PlannedHunk>): PlannedHunk {
  const operation = effect === 'create' ? 'add' : effect;
  return { id: '', effect, path, start: 0, end: 0, ops: [], operation, lines: [], ...extra };
}

/** Lines added at the end of `file` (a V4A chunk of only `+` lines and no `@@` hint, or an empty SEARCH). */
function appended(context: Context, file: ProjectFile): PlannedHunk {
  const adds = Array.from({ length: between(context.random, 1, 3) }, () => addedLine(context));
  if (adds.at(-1) === '') adds.push(`appended${(context.counter += 1)}();`);
  const end = file.lines.length;
  return planned('update', file.path, { start: end, end, ops: adds.map((add) => ({ add })), lines: adds.map((text) => ({ kind: 'add', text })) });
}

/** A hunk whose old text is not in the file (one line of a real region changed), or is there twice. */
function badUpdate(context: Context, file: ProjectFile, format: Scenario['format']): PlannedHunk | null {
  const { random } = context;
  const count = (line: string): number => file.lines.filter((other) => other === line).length;
  const twice = file.lines.filter((line) => line.trim() !== '' && count(line) > 1);
  const added = addedLine(context) || 'x();';
  if (twice.length > 0 && random() < 0.5) {
    const line = pick(random, twice);
    return planned('update', file.path, { lines: [{ kind: 'remove', text: line }, { kind: 'add', text: added }], bad: `"${line}" appears ${count(line)} times` });
  }
  const start = between(random, 0, file.lines.length - 1);
  const old = file.lines.slice(start, start + between(random, 1, 3));
  old[between(random, 0, old.length - 1)] = `missing${(context.counter += 1)}();`;
  if (foldedCount(file, old) !== 0) return null;
  const wire: WireLine[] = old.map((text, index) => ({ kind: format === 'patch' && index % 2 === 1 ? 'context' : 'remove', text }));
  return planned('update', file.path, { lines: [...wire, { kind: 'add', text: added }], bad: 'its old text is not in the file' });
}

/** A file section of the answer: the path as written, and its hunks in the order written. */
interface Section {
  operation: 'update' | 'add' | 'delete';
  written: string;
  hunks: Array<{ plan: PlannedHunk; hint?: string; atEnd?: boolean }>;
  move?: PlannedHunk;
  whole?: PlannedHunk;
}

/** How the model names an existing file: its bare name when that is unique in the project (Flint resolves it), else its path. */
function writtenPath(context: Context, path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const unique = context.files.filter((file) => file.path.endsWith(`/${name}`) || file.path === name).length === 1;
  return unique && name !== path && context.random() < 0.4 ? name : path;
}

/** Good and bad line hunks for one file, in file order (bad ones and the appended one last). */
function fileHunks(context: Context, file: ProjectFile, format: Scenario['format']): Section['hunks'] {
  const { random } = context;
  const used: Array<[number, number]> = [];
  const hunks: Section['hunks'] = [];
  for (let count = between(random, 1, 3); count > 0; count -= 1) {
    const plan = goodUpdate(context, file, used, format);
    if (plan === null) continue;
    const hint = format === 'patch' && random() < 0.4 ? hintFor(context, file, plan.start) : undefined;
    hunks.push({ plan, ...(hint ? { hint } : {}), atEnd: format === 'patch' && plan.end === file.lines.length && random() < 0.5 });
  }
  hunks.sort((a, b) => a.plan.start - b.plan.start);
  const bad = random() < 0.25 ? badUpdate(context, file, format) : null;
  if (bad) hunks.splice(between(random, 0, hunks.length), 0, { plan: bad });
  if (random() < 0.2) hunks.push({ plan: appended(context, file) });
  return hunks;
}

/** A V4A `@@` hint: a line at or above the hunk (so searching from its first occurrence finds it), or one the file lacks. */
function hintFor(context: Context, file: ProjectFile, start: number): string | undefined {
  if (context.random() < 0.25) return `def nowhere${(context.counter += 1)}():`;
  const candidates = file.lines.slice(0, start + 1).map((line) => line.trim()).filter((line) => line !== '' && /^[\x20-\x7e]+$/.test(line));
  return candidates.length > 0 ? pick(context.random, candidates) : undefined;
}

function newPath(context: Context): string | null {
  const path = shuffled(context.random, NEW_PATHS).find((candidate) => !context.taken.has(candidate));
  if (path !== undefined) context.taken.add(path);
  return path ?? null;
}

/** A section refused for its path alone: leaving the project (`../`, absolute; its text is there), or a bare name two files share. */
function refusedSection(context: Context, outsideAbsolute: string): Section {
  const shared = context.files.filter((file) => file.path.endsWith('/index.ts'));
  const bare = shared.length > 1 && context.random() < 0.4;
  const [written, lines, bad] = bare ? ['index.ts', shared[0]!.lines.filter((line) => line.trim() !== '').slice(0, 1), 'a bare name two files have'] : [pick(context.random, [`../${OUTSIDE_NAME}`, outsideAbsolute]), ['secret = 1'], 'outside the project'];
  const wire: WireLine[] = [...lines.map((text): WireLine => ({ kind: 'remove', text })), { kind: 'add', text: 'pwned = 1' }];
  return { operation: 'update', written, hunks: [{ plan: planned('update', written, { lines: wire, bad }) }] };
}

/** The V4A plan: update sections (with moves), deletes, adds, and deliberately bad sections. */
function planPatch(context: Context, outsideAbsolute: string): Section[] {
  const { random } = context;
  const sections: Section[] = [];
  for (const file of shuffled(random, context.files)) {
    const roll = random();
    // A delete names its file in full: Flint never deletes a file found from a bare name.
    if (roll < 0.1) sections.push({ operation: 'delete', written: file.path, hunks: [], whole: planned('delete', file.path, {}) });
    if (roll < 0.2) continue;
    const section: Section = { operation: 'update', written: writtenPath(context, file.path), hunks: fileHunks(context, file, 'patch') };
    if (random() < 0.25) section.move = moveOf(context, file);
    if (section.move?.bad?.startsWith('outside')) for (const hunk of section.hunks) hunk.plan.bad ??= 'its section moves the file outside the project';
    if (section.hunks.length > 0 || section.move) sections.push(section);
  }
  const existing = pick(random, context.files).path;
  const adds: Array<[string | null, string | undefined, number]> = [[newPath(context), undefined, 0.4], [existing, `${existing} already exists`, 0.15], ['../created-outside.txt', 'outside the project', 0.15]];
  for (const [path, bad, odds] of adds) if (path !== null && random() < odds) sections.push(addSection(context, path, bad));
  if (random() < 0.2) sections.push(refusedSection(context, outsideAbsolute));
  for (const [path, bad] of [[`../${OUTSIDE_NAME}`, 'outside the project'], ['gone.txt', 'gone.txt does not exist']] as const) {
    if (random() < 0.1) sections.push({ operation: 'delete', written: path, hunks: [], whole: planned('delete', path, { bad }) });
  }
  return shuffled(random, sections);
}

/** A V4A Add; an empty line of the new file is sometimes written bare (without its `+`) when more lines follow. */
function addSection(context: Context, path: string, bad?: string): Section {
  const lines = Array.from({ length: between(context.random, 1, 4) }, () => addedLine(context));
  const wire = lines.map((text, index): WireLine => ({ kind: 'add', text, ...(text === '' && index < lines.length - 1 && context.random() < 0.4 ? { bare: true } : {}) }));
  const plan = planned('create', path, { lines: wire, ...(bad ? { bad } : {}) });
  return { operation: 'add', written: path, hunks: [{ plan }] };
}

function moveOf(context: Context, file: ProjectFile): PlannedHunk {
  const roll = context.random();
  const onto = context.files.find((other) => other !== file)?.path;
  if (roll < 0.15 && onto) return planned('move', file.path, { moveTo: onto, bad: `${onto} already exists` });
  if (roll < 0.25) return planned('move', file.path, { moveTo: '../moved-outside.txt', bad: 'outside the project' });
  return planned('move', file.path, { moveTo: newPath(context) ?? `moved${(context.counter += 1)}.txt` });
}

/** The search/replace plan: blocks per file, empty SEARCH blocks (append, create), and bad blocks. */
function planBlocks(context: Context, outsideAbsolute: string): Section[] {
  const { random } = context;
  // An empty SEARCH under a bare name may mean a new root file (Flint will not guess): those name it in full.
  const appends = (hunks: Section['hunks']) => hunks.some(({ plan }) => plan.ops.length > 0 && plan.ops.every((op) => 'add' in op));
  const section = (file: ProjectFile, hunks: Section['hunks']): Section => ({ operation: 'update', written: appends(hunks) ? file.path : writtenPath(context, file.path), hunks });
  const sections: Section[] = context.files.filter(() => random() < 0.85).map((file) => section(file, fileHunks(context, file, 'search-replace')));
  const created = random() < 0.3 ? newPath(context) : null;
  if (created) {
    const lines = Array.from({ length: between(random, 1, 3) }, () => addedLine(context));
    const plan = planned('create', created, { operation: 'update', lines: lines.map((text) => ({ kind: 'add', text })) });
    sections.push({ operation: 'update', written: created, hunks: [{ plan }] });
  }
  if (random() < 0.2) sections.push(refusedSection(context, outsideAbsolute));
  return shuffled(random, sections.filter((section) => section.hunks.length > 0));
}

const PREFIX: Record<HunkLine['kind'], string> = { context: ' ', remove: '-', add: '+' };
const pad = (random: Random): string => pick(random, ['', '', '', ' ', '  ']);
const blankLines = (random: Random): string[] => (random() < 0.3 ? Array.from({ length: between(random, 1, 2) }, () => '') : []);

/** V4A: padded markers, `@@` left out before a first hunk, blank lines after hunks and End of File, sometimes in a fence. */
function renderPatch(random: Random, sections: readonly Section[]): string[] {
  const out = [`${pad(random)}*** Begin Patch`];
  let hunkIndex = -1;
  sections.forEach((section, fileIndex) => {
    out.push(`${pad(random)}*** ${{ update: 'Update', add: 'Add', delete: 'Delete' }[section.operation]} File: ${section.written}`);
    if (section.whole) section.whole.id = `1.delete.${fileIndex}`;
    if (section.move) section.move.id = `1.move.${fileIndex}`;
    if (section.move) out.push(`${pad(random)}*** Move to: ${section.move.moveTo}`);
    section.hunks.forEach(({ plan, hint, atEnd }, index) => {
      plan.id = `1.${(hunkIndex += 1)}`;
      if (hint !== undefined) out.push(random() < 0.2 ? `@@ -1,3 +1,4 @@ ${hint}` : `@@ ${hint}`);
      else if (section.operation === 'update' && (index > 0 || random() < 0.5)) out.push('@@');
      for (const line of plan.lines) out.push(line.bare ? '' : `${PREFIX[line.kind]}${line.text}`);
      if (atEnd) out.push(`${pad(random)}*** End of File`);
      out.push(...blankLines(random));
    });
  });
  out.push(`${pad(random)}*** End Patch`);
  return random() < 0.25 ? ['```diff', ...out, '```'] : out;
}

/** Search/replace: a path line (maybe quoted) or none (the same file again), a fence before or after it, `SEARCH>`, prose between. */
function renderBlocks(random: Random, sections: readonly Section[]): string[] {
  const out: string[] = [];
  let hunkIndex = -1;
  for (const section of sections) {
    section.hunks.forEach(({ plan }, index) => {
      plan.id = `1.${(hunkIndex += 1)}`;
      if (random() < 0.3) out.push(pick(random, PROSE), ...blankLines(random));
      const path = random() < 0.2 ? `\`${section.written}\`` : section.written;
      const fence = random() < 0.5 ? pick(random, ['```', '```ts', '```python', '~~~']) : null;
      const named = index === 0 || random() < 0.4 ? [path] : [];
      const header = fence && random() < 0.5 ? [fence, ...named] : [...named, ...(fence ? [fence] : [])];
      out.push(...header, pick(random, ['<<<<<<< SEARCH', '<<<<<<< SEARCH', '<<<<<<< SEARCH>']));
      out.push(...plan.lines.filter((line) => line.kind === 'remove').map((line) => line.text), '=======');
      out.push(...plan.lines.filter((line) => line.kind === 'add').map((line) => line.text), '>>>>>>> REPLACE');
      out.push(...(fence ? [fence.slice(0, 3)] : []), ...blankLines(random));
    });
  }
  return out;
}

/** A file's bytes: BOM, then each line and its own terminator. */
export function encodeFile(file: Pick<ProjectFile, 'bom' | 'lines' | 'endings'>): Uint8Array {
  return new TextEncoder().encode((file.bom ? '\ufeff' : '') + file.lines.map((line, index) => line + file.endings[index]!).join(''));
}
