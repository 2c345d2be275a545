/**
 * One version of a file's text, shared by every hunk proposed or planned on it.
 *
 * An answer's hunks all stand on the text the model saw; copying that text (or
 * normalizing its lines) per hunk made memory and time grow as hunks × file. A version
 * holds the text once, the anchoring indexes once (built on first use), and what changed
 * since an older version once (a diff costing the file times the lines changed), so a
 * thousand hunks cost a thousand small lookups, plus one scan per distinct `@@` hint.
 */
import { AnchorableFile } from '../../shared/edits/anchor-hunk';
import type { FileText } from '../fs/file-text';
import { changedRegions, type ChangedRegion } from '../../shared/edits/line-diff';

export type { ChangedRegion } from '../../shared/edits/line-diff';

/** Past this many changed lines, a diff is not worth its cost: the whole changed stretch is one region. */
const MAX_CHANGED_LINES = 2_000;

export class FileVersion {
  /** Anchoring's view of the lines; shared with an older version holding the same lines. */
  readonly anchorable: AnchorableFile;
  private readonly changes = new WeakMap<FileVersion, ChangedRegion[]>();

  private constructor(
    readonly text: FileText,
    anchorable?: AnchorableFile,
  ) {
    this.anchorable = anchorable ?? new AnchorableFile(text.lines);
  }

  /**
   * The version for `text`; when `known` has the same lines (the file as Flint last saw
   * it, read again), its indexes are reused rather than rebuilt. When the bytes are the
   * same too, the known version's dominant line ending is kept: a file Flint wrote keeps
   * the one of the text its hunks were planned on, so lines added by accepting hunks one
   * by one end like lines added by one Accept all.
   */
  static of(text: FileText, known?: FileVersion | null): FileVersion {
    if (!known || !sameLines(known.text.lines, text.lines)) return new FileVersion(text);
    if (known.text === text) return known;
    // The same bytes: the same version, with everything worked out for it so far.
    const sameBytes = known.text.bom === text.bom && sameLines(known.text.terminators, text.terminators);
    return sameBytes ? known : new FileVersion(text, known.anchorable);
  }

  get lines(): readonly string[] {
    return this.text.lines;
  }

  /** Whether both hold the same lines (line endings and BOM aside). */
  sameLinesAs(other: FileVersion): boolean {
    return other === this || other.anchorable === this.anchorable || sameLines(other.text.lines, this.text.lines);
  }

  /**
   * What changed from `older` to this version, as regions of `older`'s lines, in order;
   * worked out once per pair, by a diff that costs the file times the lines changed
   * (line-diff.ts): a save touches a few lines.
   */
  changesSince(older: FileVersion): ChangedRegion[] {
    let regions = this.changes.get(older);
    if (!regions) this.changes.set(older, (regions = changedRegions(older.lines, this.lines, MAX_CHANGED_LINES)));
    return regions;
  }

  /**
   * Where lines [start, end) of `older` are in this version, when nothing changed in or
   * right next to them (a change touching the range is not safely movable: null), lines
   * inserted at its edges aside.
   */
  mapRange(older: FileVersion, start: number, end: number): { start: number; end: number } | null {
    let shift = 0;
    for (const region of this.changesSince(older)) {
      // Lines inserted at an edge of the range go beside it (the range's lines are all still
      // there, in order); any other change next to it touches it, as in a 3-way merge.
      const besideEdge = region.start === region.end && start < end;
      if (region.end < start || (besideEdge && region.start === start)) {
        shift += region.length - (region.end - region.start);
        continue;
      }
      if (region.start > end || (besideEdge && region.start === end)) break;
      return null;
    }
    return { start: start + shift, end: end + shift };
  }
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
