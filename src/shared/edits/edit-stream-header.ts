/**
 * The bounded lookahead that finds a search/replace block's header among prose lines.
 *
 * Models write a block's file and fence in two layouts: `path`, ```` ```lang ````, SEARCH…
 * or ```` ```lang ````, `path`, SEARCH…, and close the fence after REPLACE. Whether a path
 * line or a fence heads a block is known only when the SEARCH marker comes, so such lines
 * (a fence, a path, blank lines between: at most four lines) are held back. If SEARCH
 * follows, they are the block's header and are consumed; otherwise they are emitted as
 * prose, in order and unchanged, before the line that proved them prose. Work per line is
 * constant: the held lines are bounded.
 *
 * Fences stay balanced: an opening fence consumed (a block's, or a patch envelope's) is
 * closed by the next bare fence line among the prose, which is consumed too, as markdown
 * would close it. Until then blocks and patches share the open fence (models put several
 * blocks in one), and a fence with a language may still head a block (a model that forgot
 * to close the last one).
 */
import { countWork } from '../work-meter';
import { trimmedLine } from './edit-stream-markers';
import { isFenceCloser, isFenceOpener, pathOfLine } from './path-line';

/** What a held line may be in a block's header. */
type HeaderPart =
  /** A line naming a file. */
  | 'path'
  /** An opening code fence. */
  | 'fence'
  /** An empty (or whitespace-only) line between them. */
  | 'blank';

interface HeldLine {
  part: HeaderPart;
  text: string;
  path: string | null;
}

/** Blank lines a header may hold: a path further up than this names no block. */
const MAX_HELD_BLANK_LINES = 2;

export class BlockHeaderLookahead {
  private held: HeldLine[] = [];
  /** An opening fence was consumed and its closing fence has not come. */
  private fenceOpen = false;

  constructor(
    private readonly emitProse: (text: string) => void,
    private readonly isProjectPath?: (candidate: string) => boolean,
  ) {}

  /** Reads a prose line: holds it if it may belong to a block's header, else emits it after anything held. */
  line(text: string): void {
    const trimmed = trimmedLine(text);
    if (this.fenceOpen && isFenceCloser(trimmed)) return this.closeFence();
    const part = this.partOf(trimmed);
    if (part === null) {
      this.release();
      return this.emitProse(text);
    }
    this.held.push({ part: part.part, text, path: part.path });
    // Emit from the front until the rest can still head a block.
    while (!this.isHeaderPrefix()) this.emitProse(this.held.shift()!.text);
  }

  /** A SEARCH marker came: the held lines were its header. Returns the file they name, or null. */
  take(): string | null {
    const path = this.held.find((line) => line.part === 'path')?.path ?? null;
    if (this.held.some((line) => line.part === 'fence')) this.fenceOpen = true;
    this.held = [];
    return path;
  }

  /**
   * A patch envelope began: a fence held right before it (blank lines aside) is its own and
   * is consumed, with the blank lines after it; held lines before the fence are prose.
   * Anything else held is prose: V4A names its files itself.
   */
  takeFence(): void {
    const held = this.held;
    let last = held.length - 1;
    while (last >= 0 && held[last]!.part === 'blank') last -= 1;
    if (last < 0 || held[last]!.part !== 'fence') return this.release();
    this.held = [];
    this.fenceOpen = true;
    for (const line of held.slice(0, last)) this.emitProse(line.text);
  }

  /** What the held lines show as text while undecided: paths and blank lines, never a fence (each line with its newline). */
  shownHeld(): string {
    let shown = '';
    for (const line of this.held) if (line.part !== 'fence') shown += `${line.text}\n`;
    countWork(shown.length + this.held.length);
    return shown;
  }

  /** Whether `text` closes the fence a block or patch envelope opened (a patch may end at it, without End Patch). */
  closesFence(text: string): boolean {
    return this.fenceOpen && isFenceCloser(text);
  }

  /** No block follows (the answer ended, a stray marker came): the held lines are prose. */
  release(): void {
    const held = this.held;
    this.held = [];
    for (const line of held) this.emitProse(line.text);
  }

  /** What a line may be in a header; null if it heads nothing (and is prose). */
  private partOf(trimmed: string): { part: HeaderPart; path: string | null } | null {
    if (trimmed === '') return { part: 'blank', path: null };
    if (isFenceOpener(trimmed)) return { part: 'fence', path: null };
    const path = pathOfLine(trimmed, this.isProjectPath);
    return path === null ? null : { part: 'path', path };
  }

  /** The fence that closes the one consumed: blank lines just before it were inside it too. */
  private closeFence(): void {
    this.fenceOpen = false;
    if (this.held.every((line) => line.part === 'blank')) this.held = [];
    else this.release();
  }

  /**
   * Whether the held lines can still head a block: a fence and a path, one each at most,
   * in either order, with few blank lines between; a blank line leads only inside an open
   * fence, where it may sit before the closing fence.
   */
  private isHeaderPrefix(): boolean {
    let paths = 0;
    let fences = 0;
    let blanks = 0;
    for (const [index, line] of this.held.entries()) {
      if (line.part === 'path') paths += 1;
      else if (line.part === 'fence') fences += 1;
      else if (index === 0 && !this.fenceOpen) return false;
      else blanks += 1;
    }
    return paths <= 1 && fences <= 1 && blanks <= MAX_HELD_BLANK_LINES;
  }
}
