/**
 * What an editor's window title says about the file in it: which editor, the path-like
 * strings it names (most specific first), and whether it marks unsaved changes.
 *
 * Pure: the title and the window's owner in, strings out. Which of the strings is a file of
 * the open project is decided elsewhere (ask/focused-file.ts), against the project's index.
 * A window whose owner is no editor (a browser, mail, chat: window-owners.ts) names nothing,
 * even with a title that looks like an editor's: a web page sets its own title.
 * The formats (the editors' defaults, and the `titlestring` settings the README suggests):
 *
 * - VS Code and its forks: `[● ]file.ts - folder - Visual Studio Code` (` — ` on macOS);
 *   `window.title` may use the relative (`${activeEditorMedium}`) or absolute path.
 * - JetBrains IDEs: `project – file.ts` (2023+), or `project [~/path] – …/src/file.ts [module] – IntelliJ IDEA`.
 * - Sublime Text: `~/code/project/src/file.ts • (project) - Sublime Text`.
 * - Zed: `project — src/file.ts`.
 * - Vim/Neovim: `file.ts + (~/code/project/src) - VIM` / `- Nvim`; with `titlestring=%F`, the absolute path.
 * - Emacs: `file.ts - GNU Emacs at host`; with `frame-title-format "%f"`, the absolute path.
 */

import { countWork } from '../../shared/work-meter';
import { nonEditorApp, type WindowOwner } from './window-owners';

export interface TitleReading {
  /** The editor, by the name users know it ("VS Code"), or null when the title is not one we know. */
  editor: string | null;
  /** Path-like strings the title names, most specific first: absolute or `~/` paths, relative paths, base names. */
  paths: string[];
  /** The title marks unsaved changes (● • + *). */
  isDirty: boolean;
  /** Set when the window's owner is an app that is no editor (a browser…): its name. Its title was not read. */
  notAnEditor?: string;
}

/** Separators editors put between a title's parts: em dash, en dash, hyphen, bar (spaced). */
const SEPARATOR = /\s+[\u2014\u2013|-]\s+/;
/**
 * Editors' titles are short; a longer one is a hostile page's `document.title` (the regexes
 * below are linear or quadratic only in this bound, so a title never holds main up).
 */
const MAX_TITLE_LENGTH = 1000;
const DIRTY_MARKS = /^[\u25cf\u2022*]\s*|\s*[\u25cf\u2022]\s*$/;
/** Decorations an editor adds after the file's name (a diff editor's side, a preview, read-only). */
const DECORATION = /\s+(?:\((?:Working Tree|Index|deleted|read-only|Read-only|Preview|Git)\b[^)]*\)|\[(?:Preview|Read Only|read-only)\])$/;

interface EditorFormat {
  editor: string;
  /** The window class (WM_CLASS), lowercased, when it identifies the editor. */
  classes: readonly string[];
  /** The title's end when it identifies the editor. */
  suffix?: RegExp;
  read: (title: string) => Omit<TitleReading, 'editor'>;
}

const JETBRAINS = /\s[\u2013-]\s(IntelliJ IDEA|WebStorm|PyCharm|GoLand|CLion|PhpStorm|RubyMine|Rider|RustRover|DataGrip|Android Studio|Aqua|Fleet)(?: [\w .]*)?$/;

const FORMATS: readonly EditorFormat[] = [
  // `[Administrator]`, `[Unsupported]`: what VS Code adds on some Windows and Linux set-ups.
  { editor: 'VS Code', classes: ['code', 'code - oss', 'code-oss', 'vscodium', 'code.exe', 'visual studio code'], suffix: /\s[\u2014-]\s(?:Visual Studio Code(?: - Insiders)?|VSCodium|Code - OSS)(?: \[[A-Za-z ]{1,20}\])?$/, read: readVsCodeLike },
  { editor: 'Cursor', classes: ['cursor'], suffix: /\s[\u2014-]\sCursor$/, read: readVsCodeLike },
  { editor: 'Windsurf', classes: ['windsurf'], suffix: /\s[\u2014-]\sWindsurf$/, read: readVsCodeLike },
  { editor: 'Sublime Text', classes: ['sublime_text', 'sublime-text'], suffix: /\s-\sSublime Text(?: \(UNREGISTERED\))?$/, read: readSublime },
  { editor: 'Vim', classes: [], suffix: /\s-\s(?:G?VIM\d*)$/, read: readVim },
  { editor: 'Neovim', classes: ['neovide', 'nvim-qt'], suffix: /\s-\s(?:NVIM|Nvim|nvim)$/, read: readVim },
  { editor: 'Emacs', classes: ['emacs'], suffix: /\s-\sGNU Emacs(?: at [^\s]+)?$/, read: readEmacs },
  { editor: 'Zed', classes: ['zed', 'dev.zed.zed', 'dev.zed.zed-preview'], suffix: /\s\u2014\sZed$/, read: readZed },
];

/**
 * Reads `title` (the focused window's), helped by its window class when the title alone is
 * unclear; `owner` is that class, or the whole owner (class, executable, bundle id).
 */
export function readEditorTitle(title: string, owner: string | WindowOwner = ''): TitleReading {
  const windowOwner = typeof owner === 'string' ? { name: owner } : owner;
  // First, and whatever the title says: a browser's title is the page's to set.
  const app = nonEditorApp(windowOwner);
  if (app !== null) return { editor: null, paths: [], isDirty: false, notAnEditor: app };
  const text = title.slice(0, MAX_TITLE_LENGTH).replace(/[\u200e\u200f\u202a-\u202e]/g, '').trim();
  // Counted at the worst case of the quadratic regexes below, on the capped text.
  countWork(text.length * text.length);
  const ownerName = windowOwner.name.toLowerCase();
  if (text === '') return { editor: null, paths: [], isDirty: false };
  for (const format of FORMATS) {
    const bySuffix = format.suffix?.test(text) ?? false;
    if (bySuffix || format.classes.includes(ownerName)) {
      const bare = bySuffix ? text.replace(format.suffix!, '') : text;
      return { editor: format.editor, ...format.read(bare) };
    }
  }
  const jetbrains = JETBRAINS.exec(text);
  if (jetbrains || ownerName.startsWith('jetbrains-')) {
    return { editor: jetbrains?.[1] ?? jetbrainsName(ownerName), ...readJetBrains(jetbrains ? text.slice(0, jetbrains.index) : text) };
  }
  return { editor: null, ...readUnknown(text) };
}

/**
 * `[● ]file - folder[ [SSH: host]]`: the file is everything before the last separator (a
 * name may itself hold " - "), else its first part; or a path, if `window.title` was set so.
 */
function readVsCodeLike(bare: string): Omit<TitleReading, 'editor'> {
  const isDirty = /^[\u25cf\u2022]/.test(bare);
  // Split keeping the separators (odd indexes), so the file's own " - " can be put back.
  const pieces = bare.replace(DIRTY_MARKS, '').split(/(\s+[\u2014\u2013|-]\s+)/);
  // "folder - Visual Studio Code" alone (no editor open) names no file.
  if (pieces.length < 3) return { paths: [], isDirty };
  const parts = pieces.filter((_, index) => index % 2 === 0);
  const whole = cleanName(pieces.slice(0, -2).join(''));
  return { paths: ranked([whole, cleanName(parts[0]!), ...parts.slice(1).filter(looksLikePath)]), isDirty };
}

/** `path[ •][ (project)]`: the path as Sublime shows it (full by default). */
function readSublime(bare: string): Omit<TitleReading, 'editor'> {
  const withoutProject = bare.replace(/\s+\([^()]*\)$/, '');
  const isDirty = /[\u2022\u25cf]/.test(withoutProject);
  const path = withoutProject.replace(/\s*[\u2022\u25cf]\s*/g, '').trim();
  return { paths: path === '' || path === 'untitled' ? [] : ranked([path]), isDirty };
}

/** `name[ +][ (dir)]`, or a whole path when `titlestring` is set to one. */
function readVim(bare: string): Omit<TitleReading, 'editor'> {
  const match = /^(.*?)(?:\s+([-+=]{1,2}))?(?:\s+\(([^()]*)\))?$/.exec(bare.trim());
  const name = match?.[1]?.trim() ?? '';
  const isDirty = match?.[2]?.includes('+') ?? false;
  const folder = match?.[3]?.trim();
  if (name === '' || name === '[No Name]') return { paths: [], isDirty };
  const paths = folder && !name.includes('/') ? [`${folder.replace(/\/$/, '')}/${name}`, name] : [name];
  return { paths: ranked(paths), isDirty };
}

/** `buffer`, or a path with `frame-title-format "%f"`; `*scratch*`-like buffers are no file. */
function readEmacs(bare: string): Omit<TitleReading, 'editor'> {
  const name = bare.trim();
  if (name === '' || /^\*.*\*$/.test(name) || /^emacs@/.test(name)) return { paths: [], isDirty: false };
  // Emacs names a second buffer of the same file "file.ts<2>".
  return { paths: ranked([name.replace(/<[^<>]+>$/, '')]), isDirty: false };
}

/** `project — path`: the path is the last part. */
function readZed(bare: string): Omit<TitleReading, 'editor'> {
  const parts = bare.split(/\s+\u2014\s+/);
  if (parts.length < 2) return { paths: [], isDirty: false };
  return { paths: ranked([cleanName(parts.at(-1)!)]), isDirty: false };
}

/** `project – file` or `project [~/path] – …/src/file [module]`: the file is the last part. */
function readJetBrains(bare: string): Omit<TitleReading, 'editor'> {
  const parts = bare.split(/\s+[\u2013-]\s+/);
  if (parts.length < 2) return { paths: [], isDirty: false };
  const file = parts.at(-1)!.replace(/\s+\[[^\]]*\]$/, '').replace(/^\u2026\//, '').replace(/^\.\.\.\//, '');
  return { paths: ranked([cleanName(file)]), isDirty: false };
}

/** An unknown window: only what clearly looks like a file path or a file name. */
function readUnknown(text: string): Omit<TitleReading, 'editor'> {
  const isDirty = /^[\u25cf\u2022*]/.test(text);
  const parts = text.replace(DIRTY_MARKS, '').split(SEPARATOR).map(cleanName);
  // Word by word (linear): a path is a word that starts at / or ~/ and ends in a file name with an extension.
  const absolute = text.split(/[\s:()'"]+/).filter((word) => /^(?:~\/|\/)/.test(word) && /\/[^/]+\.\w+$/.test(word));
  return { paths: ranked([...absolute, ...parts.filter((part) => looksLikePath(part) || looksLikeFileName(part))]), isDirty };
}

function cleanName(part: string): string {
  return part.replace(DIRTY_MARKS, '').replace(DECORATION, '').trim();
}

function looksLikePath(part: string): boolean {
  return /^(?:~\/|\/|[A-Za-z]:[\\/]|\.{0,2}\/)?[^\s]*[\\/][^\\/\s]+$/.test(part.trim());
}

function looksLikeFileName(part: string): boolean {
  return /^[^\s\\/]+\.[A-Za-z0-9]{1,10}$/.test(part.trim());
}

/** Distinct, non-empty, most specific first: absolute paths, then relative paths, then base names. */
function ranked(paths: readonly string[]): string[] {
  const rank = (path: string): number => (/^(?:~\/|\/|[A-Za-z]:[\\/])/.test(path) ? 0 : /[\\/]/.test(path) ? 1 : 2);
  const distinct = [...new Set(paths.map((path) => path.trim()).filter((path) => path !== ''))];
  return distinct.sort((a, b) => rank(a) - rank(b));
}

function jetbrainsName(owner: string): string {
  const product = owner.slice('jetbrains-'.length);
  const names: Record<string, string> = { idea: 'IntelliJ IDEA', webstorm: 'WebStorm', pycharm: 'PyCharm', goland: 'GoLand', clion: 'CLion', phpstorm: 'PhpStorm', rubymine: 'RubyMine', rider: 'Rider', studio: 'Android Studio' };
  return names[product] ?? 'a JetBrains IDE';
}
