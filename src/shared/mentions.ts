/**
 * `@path` mentions in a question: the user names project files to send with it.
 *
 * Pure, shared: the renderer uses it to offer completion and show what it found; main
 * parses the question again itself and decides (the renderer only suggests).
 *
 * The rule, so that prose stays prose:
 * 1. `@` starts a mention only at the start of the text, after whitespace, or after an
 *    opening bracket or quote — never inside a word (`me@example.com`, `user@host`).
 * 2. A mention runs to the next whitespace, or to one of `()[]{}<>"'`,;|:` (so
 *    `@Component({`, `@src/a.ts:12` and `(@src/a.ts)` name `Component` and `src/a.ts`);
 *    sentence punctuation at its end is not part of it (`see @src/a.ts.`). A drive
 *    letter's colon (`@C:\x`) is kept so such a path can be refused for what it is.
 *    `@"a file.ts"` quotes a path with spaces or those characters.
 * 3. It is *path-shaped* when it cannot be anything else: its last segment has an
 *    extension (`a.ts`, `README.md`), or it starts with `/`, `./`, `../`, `~`, `.`, a
 *    drive letter, or holds a backslash, or was quoted. Main treats a path-shaped mention
 *    as a file the user meant and reports what is wrong with it (missing, a folder,
 *    binary, outside the project).
 * 4. Anything else (`@Component`, `@param`, `@types/node`, `@src/lib`, `@Makefile`) is a
 *    mention only if its first segment names an entry of the project — then `@src/lib`
 *    gets "is a folder" and `@Makefile` is sent — and prose otherwise.
 */

export interface Mention {
  /** The path as typed: no `@`, no quotes, no trailing punctuation. */
  text: string;
  /** Where the mention is in the question, `@` included (end exclusive). */
  start: number;
  end: number;
  /** See rule 3: certainly meant as a path, whatever exists. */
  isPathShaped: boolean;
}

/** What main made of one mention, for the ask bar to show under its title. */
export interface MentionStatus {
  /** As typed, with its `@`. */
  mention: string;
  /** The project-relative path it resolved to, when it did. */
  path: string | null;
  /**
   * `sent`: the whole file goes with the question. `partial`: a window of it (too large
   * for its share of the model's window). `cut`: left out (no room, or too many files).
   * `refused`: a folder, a binary or missing file, a path outside the project.
   */
  state: 'sent' | 'partial' | 'cut' | 'refused';
  /** Why, in words, for every state but `sent`. */
  message?: string;
  lineCount?: number;
}

/** Characters that end an unquoted mention (besides whitespace). */
const STOPS = new Set(['(', ')', '[', ']', '{', '}', '<', '>', '"', "'", '`', ',', ';', '|', ':']);
/** Characters after which `@` may start a mention (besides whitespace and the start). */
const OPENERS = new Set(['(', '[', '{', '<', '"', "'", '`']);
/** Punctuation that ends a sentence rather than a path. */
const TRAILING = /[,;!?…]$/;
const EXTENSION = /[^./\\]\.[\p{L}\p{N}_+-]{1,12}$/u;

/** Every mention in `text`, in order. */
export function parseMentions(text: string): Mention[] {
  const mentions: Mention[] = [];
  for (let index = text.indexOf('@'); index !== -1; index = text.indexOf('@', index + 1)) {
    if (!startsMention(text, index)) continue;
    const mention = readMention(text, index);
    if (mention) {
      mentions.push(mention);
      index = mention.end - 1;
    }
  }
  return mentions;
}

/** Whether the `@` at `index` may begin a mention (rule 1). */
function startsMention(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text[index - 1]!;
  return /\s/u.test(before) || OPENERS.has(before);
}

function readMention(text: string, at: number): Mention | null {
  if (text[at + 1] === '"') {
    const close = text.indexOf('"', at + 2);
    const end = close === -1 ? text.length : close + 1;
    const inner = text.slice(at + 2, close === -1 ? text.length : close);
    return inner.trim() === '' ? null : { text: inner, start: at, end, isPathShaped: true };
  }
  let end = at + 1;
  while (end < text.length && !/\s/u.test(text[end]!) && !(STOPS.has(text[end]!) && !isDriveColon(text, at + 1, end))) end += 1;
  let raw = text.slice(at + 1, end);
  // Sentence punctuation is not the path's; dots are, when they are all a segment has (`..`).
  while (TRAILING.test(raw) || (raw.endsWith('.') && !/(^|[/\\])\.+$/.test(raw))) raw = raw.slice(0, -1);
  if (raw === '' || raw.startsWith('@')) return null;
  return { text: raw, start: at, end: at + 1 + raw.length, isPathShaped: isPathShaped(raw) };
}

/** `C:` right after the `@`, followed by a slash: a drive letter, kept whole. */
function isDriveColon(text: string, start: number, index: number): boolean {
  return index === start + 1 && text[index] === ':' && /[A-Za-z]/.test(text[start]!) && /[\\/]/.test(text[index + 1] ?? '');
}

/** Rule 3. */
export function isPathShaped(path: string): boolean {
  if (/^(\/|\.|~|[A-Za-z]:)/.test(path) || path.includes('\\')) return true;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return EXTENSION.test(last);
}

/** The first segment of a mention (what rule 4 looks up in the project). */
export function firstSegment(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash);
}

/** The mentions main should look at, each once (the first spelling wins). */
export function uniqueMentions(text: string): Mention[] {
  const seen = new Set<string>();
  return parseMentions(text).filter((mention) => !seen.has(mention.text) && seen.add(mention.text));
}

/** How a path is written as a mention: quoted when it has whitespace or a stop character. */
export function mentionFor(path: string): string {
  return [...path].some((character) => /\s/u.test(character) || STOPS.has(character)) ? `@"${path}"` : `@${path}`;
}

/** The mention being typed at `caret` (for completion): where its `@` is and what follows it so far; else null. */
export function mentionAtCaret(text: string, caret: number): { start: number; end: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at === -1 || !startsMention(text, at)) return null;
  const typed = before.slice(at + 1);
  // An open quote takes anything but its closing quote; otherwise a space or stop ends it.
  if (typed.startsWith('"')) {
    if (typed.indexOf('"', 1) !== -1) return null;
  } else if ([...typed].some((character) => /\s/u.test(character) || STOPS.has(character))) return null;
  let end = caret;
  while (end < text.length && !/\s/u.test(text[end]!) && !STOPS.has(text[end]!)) end += 1;
  if (typed.startsWith('"') && text[end] === '"') end += 1;
  return { start: at, end, query: typed.replace(/^"/, '') };
}

/** `text` with the mention at `[start, end)` replaced by `path`'s, and where the caret goes (after a space). */
export function completeMention(text: string, start: number, end: number, path: string): { text: string; caret: number } {
  const inserted = mentionFor(path);
  const rest = text.slice(end);
  const spacer = rest.startsWith(' ') ? '' : ' ';
  return { text: `${text.slice(0, start)}${inserted}${spacer}${rest}`, caret: start + inserted.length + 1 };
}
