/**
 * The diff inside the file (CodeMirror 6): a review document's blocks (review-doc.ts)
 * drawn in place — removed lines red, added lines green with word marks, a header per
 * hunk with its Accept / Reject buttons — and editable only where the hunk adds text, so
 * the user can edit a hunk's new text before accepting it.
 *
 * Where each block is, line by line, lives in decorations that map through the user's
 * edits: kept and removed lines can never change (a change filter guards them), so their
 * marks stay exact; any other line inside a block is new text (the model's, or typed).
 */
import { EditorState, StateEffect, StateField, Transaction, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view';
import { pinnedHeaders } from './pinned-headers';
import type { HunkLine } from '../../../../shared/edits/edit-types';
import type { ReviewBlock, ReviewDoc } from './review-doc';
import { reviewTheme as theme } from './review-theme';
import { changedSpan } from './review-lines';

/** What a block's header shows and does. */
export interface ReviewActions {
  accept: (hunkId: string) => void;
  reject: (hunkId: string) => void;
  /** The cursor moved into the hunk's block (it becomes the one the keys act on). */
  enter: (hunkId: string) => void;
  /** The key labels shown on the buttons ("Ctrl+Enter"). */
  acceptKey: string;
  rejectKey: string;
}

interface LineSpec {
  hunkId: string;
  kind: HunkLine['kind'];
  index: number;
}

interface BlockSpec {
  hunkId: string;
  number: number;
  /** The model's new text as drawn (see ReviewBlock): anything else is the user's edit. */
  modelNewText: string[];
}

interface ReviewState {
  /** One point per block line the model wrote, at its start: what the line is. */
  lines: DecorationSet;
  /** One range per block, growing with text typed at its end. */
  blocks: DecorationSet;
  current: string | null;
}

/** Replaces the blocks (with the document, in the same transaction). */
export const setReviewBlocks = StateEffect.define<ReviewDoc['blocks']>();
/** The hunk the keys act on: its block is marked and scrolled to. */
export const setCurrentHunk = StateEffect.define<string | null>();

const empty: ReviewState = { lines: Decoration.none, blocks: Decoration.none, current: null };

export const reviewField = StateField.define<ReviewState>({
  create: () => empty,
  update(value, tr) {
    let next = tr.docChanged ? { ...value, lines: value.lines.map(tr.changes), blocks: value.blocks.map(tr.changes) } : value;
    for (const effect of tr.effects) {
      if (effect.is(setReviewBlocks)) next = { ...next, ...decorationsOf(tr.state, effect.value) };
      else if (effect.is(setCurrentHunk)) next = { ...next, current: effect.value };
    }
    return next;
  },
});

function decorationsOf(state: EditorState, blocks: readonly ReviewBlock[]): Pick<ReviewState, 'lines' | 'blocks'> {
  const lines: Range<Decoration>[] = [];
  const ranges: Range<Decoration>[] = [];
  for (const block of blocks) {
    if (block.lines.length === 0) continue;
    const first = state.doc.line(block.firstLine + 1);
    const last = state.doc.line(block.firstLine + block.lines.length);
    block.lines.forEach((line, offset) => {
      const spec: LineSpec = { hunkId: block.hunkId, kind: line.kind, index: line.index };
      lines.push(Decoration.line({ spec }).range(state.doc.line(block.firstLine + 1 + offset).from));
    });
    const spec: BlockSpec = { hunkId: block.hunkId, number: block.number, modelNewText: block.modelNewText };
    ranges.push(Decoration.mark({ spec, inclusiveEnd: true }).range(first.from, Math.max(last.to, first.from)));
  }
  return { lines: Decoration.set(lines, true), blocks: Decoration.set(ranges, true) };
}

/** A block as it is now: where, and each of its lines with what it is (`add` for anything typed). */
export interface BlockNow {
  hunkId: string;
  number: number;
  from: number;
  to: number;
  modelNewText: string[];
  lines: Array<{ from: number; to: number; number: number; kind: HunkLine['kind']; index: number; text: string }>;
}

/** Per state, computed once: the gutter, the guard and the drawing all ask for it many times. */
const blocksOfState = new WeakMap<EditorState, BlockNow[]>();

export function blocksNow(state: EditorState): BlockNow[] {
  let blocks = blocksOfState.get(state);
  if (!blocks) blocksOfState.set(state, (blocks = readBlocks(state)));
  return blocks;
}

function readBlocks(state: EditorState): BlockNow[] {
  const review = state.field(reviewField, false);
  if (!review || review.blocks.size === 0) return [];
  const known = new Map<number, LineSpec>();
  review.lines.between(0, state.doc.length, (from, _to, decoration) => {
    const spec = decoration.spec.spec as LineSpec;
    // Two marks on one line (typed lines removed around a kept one): the kept line's wins.
    const there = known.get(from);
    if (!there || there.kind === 'add') known.set(from, spec);
  });
  const blocks: BlockNow[] = [];
  review.blocks.between(0, state.doc.length, (from, to, decoration) => {
    const spec = decoration.spec.spec as BlockSpec;
    const block: BlockNow = { ...spec, from, to, lines: [] };
    for (let line = state.doc.lineAt(from); ; line = state.doc.line(line.number + 1)) {
      const mark = known.get(line.from);
      const own = mark?.hunkId === spec.hunkId ? mark : undefined;
      block.lines.push({ from: line.from, to: line.to, number: line.number, kind: own?.kind ?? 'add', index: own?.index ?? -1, text: line.text });
      if (line.to >= to || line.number === state.doc.lines) break;
    }
    blocks.push(block);
  });
  return blocks;
}

/** The ranges the user may change: each run of added lines in a block. */
function editableRanges(state: EditorState): Array<[number, number]> {
  const zones: Array<[number, number]> = [];
  for (const block of blocksNow(state)) {
    let zone: [number, number] | null = null;
    for (const line of block.lines) {
      if (line.kind !== 'add') {
        zone = null;
        continue;
      }
      if (zone) zone[1] = line.to;
      else zones.push((zone = [line.from, line.to]));
    }
  }
  return zones;
}

/**
 * Outside added text nothing changes: kept and removed lines are the file's, as on disk.
 * A transaction with any change outside an added run is refused whole (a paste across a
 * kept line does nothing rather than half of something).
 */
const guard = EditorState.changeFilter.of((tr) => {
  if (!tr.docChanged || tr.effects.some((effect) => effect.is(setReviewBlocks))) return true;
  const zones = editableRanges(tr.startState);
  let inside = true;
  tr.changes.iterChanges((from, to, _fromB, _toB, inserted) => {
    inside &&= zones.some(([zoneFrom, zoneTo]) => {
      if (zoneFrom <= from && to <= zoneTo) return true;
      // Deleting every added line of a run takes one line break with it (before or after),
      // leaving the kept lines around it as they were.
      const wholeRun = inserted.length === 0 && ((from === zoneFrom - 1 && to === zoneTo) || (from === zoneFrom && to === zoneTo + 1));
      return wholeRun && from >= 0 && to <= tr.startState.doc.length;
    });
  });
  return inside;
});

/**
 * Deleting all the text of a run of added lines deletes the lines: the line break before
 * them goes too, so no empty line the user never typed is left to be written.
 */
const wholeRunDeletion = EditorState.transactionFilter.of((tr) => {
  if (!tr.docChanged || tr.effects.some((effect) => effect.is(setReviewBlocks))) return tr;
  const changes: Array<{ from: number; to: number }> = [];
  let inserts = false;
  tr.changes.iterChanges((from, to, _fromB, _toB, inserted) => {
    changes.push({ from, to });
    inserts ||= inserted.length > 0;
  });
  if (changes.length !== 1 || inserts) return tr;
  const [{ from, to }] = changes as [{ from: number; to: number }];
  const run = editableRanges(tr.startState).find(([zoneFrom, zoneTo]) => zoneFrom === from && zoneTo === to && zoneTo > zoneFrom);
  if (!run || from === 0) return tr;
  return { changes: { from: from - 1, to }, selection: { anchor: from - 1 }, userEvent: tr.annotation(Transaction.userEvent) ?? 'delete' };
});

class BlockHeader extends WidgetType {
  constructor(
    private readonly block: BlockNow,
    private readonly current: boolean,
    /** Read at each click: a header kept across drawings never calls stale handlers. */
    private readonly actions: () => ReviewActions,
    private readonly acceptLabel: string,
  ) {
    super();
  }

  override eq(other: BlockHeader): boolean {
    const [a, b] = [this.block, other.block];
    return a.hunkId === b.hunkId && a.number === b.number && isEdited(a) === isEdited(b) && this.current === other.current && this.acceptLabel === other.acceptLabel && countsOf(a) === countsOf(b);
  }

  toDOM(): HTMLElement {
    const header = document.createElement('div');
    header.className = `cm-flint-hunk-header${this.current ? ' is-current' : ''}`;
    header.dataset.reviewHunk = this.block.hunkId;
    header.setAttribute('role', 'group');
    header.setAttribute('aria-label', `Hunk ${this.block.number}, ${countsOf(this.block)}`);
    const title = document.createElement('span');
    title.className = 'cm-flint-hunk-title';
    title.textContent = `Hunk ${this.block.number} · ${countsOf(this.block)}${isEdited(this.block) ? ' · edited' : ''}`;
    header.append(title, this.button(this.acceptLabel, this.actions().acceptKey, () => this.actions().accept(this.block.hunkId)), this.button('Reject', this.actions().rejectKey, () => this.actions().reject(this.block.hunkId)));
    return header;
  }

  private button(label: string, key: string, onClick: () => void): HTMLButtonElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `cm-flint-${label.split(' ')[0]!.toLowerCase()}`;
    button.textContent = `${label} `;
    const kbd = document.createElement('kbd');
    kbd.textContent = key;
    button.append(kbd);
    button.title = `${label} · hunk ${this.block.number} (${key})`;
    // The editor must not take the click as a cursor move.
    button.addEventListener('mousedown', (event) => event.preventDefault());
    button.addEventListener('click', onClick);
    return button;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

function countsOf(block: BlockNow): string {
  const added = block.lines.filter((line) => line.kind === 'add').length;
  const removed = block.lines.filter((line) => line.kind === 'remove').length;
  return `+${added} −${removed}`;
}

/** The block's changed lines the model wrote, and those of them the selection covers. */
export function chosenLines(state: EditorState, block: BlockNow): { changed: BlockNow['lines']; chosen: BlockNow['lines'] } {
  const changed = block.lines.filter((line) => line.kind !== 'context' && line.index >= 0);
  // A selection must cover some of a line's text (all of an empty one): one that only
  // starts at a line's end or stops at its very start does not take that line.
  const covers = (line: BlockNow['lines'][number]) => state.selection.ranges.some((range) => !range.empty && range.from < Math.max(line.to, line.from + 1) && range.to > line.from);
  return { changed, chosen: changed.filter(covers) };
}

/** What Accept would take, in the header's words. */
function acceptWords(state: EditorState, block: BlockNow): string {
  if (isEdited(block)) return 'Accept edit';
  const { changed, chosen } = chosenLines(state, block);
  return chosen.length > 0 && chosen.length < changed.length ? `Accept ${chosen.length} of ${changed.length} lines` : 'Accept';
}

/** The block's new text as it is now: its kept and added lines, typed ones included. */
export function newLinesNow(block: BlockNow): string[] {
  return block.lines.filter((line) => line.kind !== 'remove').map((line) => line.text);
}

/** Whether the block's new text is not the model's (the user edited it; an edit undone is not one). */
export function isEdited(block: BlockNow): boolean {
  const now = newLinesNow(block);
  return now.length !== block.modelNewText.length || now.some((line, index) => line !== block.modelNewText[index]);
}

/** The hunk whose block holds `position`, if any. */
export function hunkAt(state: EditorState, position: number): string | null {
  return blocksNow(state).find((block) => block.from <= position && position <= block.to)?.hunkId ?? null;
}

/** Classes per line, word marks between a removed line and the added one in its place, and the headers. */
function drawn(state: EditorState, actions: () => ReviewActions): DecorationSet {
  const review = state.field(reviewField);
  const builder: Range<Decoration>[] = [];
  for (const block of blocksNow(state)) {
    const current = block.hunkId === review.current;
    builder.push(Decoration.widget({ widget: new BlockHeader(block, current, actions, acceptWords(state, block)), block: true, side: -1 }).range(block.from));
    for (const line of block.lines) {
      const kind = line.kind === 'context' ? 'context' : line.kind;
      builder.push(Decoration.line({ class: `cm-flint-${kind}${current ? ' is-current' : ''}` }).range(line.from));
    }
    builder.push(...wordMarks(block));
  }
  return Decoration.set(builder, true);
}

/** Within each run of removed then added lines, the i-th added line is marked against the i-th removed one. */
function wordMarks(block: BlockNow): Range<Decoration>[] {
  const marks: Range<Decoration>[] = [];
  const removed: BlockNow['lines'] = [];
  let added = 0;
  for (const line of block.lines) {
    if (line.kind === 'context') {
      removed.length = 0;
      added = 0;
    } else if (line.kind === 'remove') {
      if (added > 0) [removed.length, added] = [0, 0];
      removed.push(line);
    } else {
      const partner = removed[added++];
      const span = partner ? changedSpan(partner.text, line.text) : null;
      if (!partner || !span) continue;
      if (span.before[1] > span.before[0]) marks.push(Decoration.mark({ class: 'cm-flint-word-removed' }).range(partner.from + span.before[0], partner.from + span.before[1]));
      if (span.after[1] > span.after[0]) marks.push(Decoration.mark({ class: 'cm-flint-word-added' }).range(line.from + span.after[0], line.from + span.after[1]));
    }
  }
  return marks;
}

/** The file's line number of each document line: added lines have none (they are not in the file yet). */
export function fileLineLabel(state: EditorState, docLine: number): string {
  const { added, removed } = gutterOf(state);
  if (added.length === 0) return String(docLine);
  const below = countBelow(added, docLine);
  if (added[below] === docLine) return '+';
  const number = String(docLine - below);
  return removed.has(docLine) ? `${number} −` : number;
}

/** The document lines that are added (sorted) and removed, per state. */
const gutters = new WeakMap<EditorState, { added: number[]; removed: Set<number> }>();

function gutterOf(state: EditorState): { added: number[]; removed: Set<number> } {
  let gutter = gutters.get(state);
  if (gutter) return gutter;
  gutter = { added: [], removed: new Set() };
  for (const block of blocksNow(state)) {
    for (const line of block.lines) {
      if (line.kind === 'add') gutter.added.push(line.number);
      else if (line.kind === 'remove') gutter.removed.add(line.number);
    }
  }
  gutters.set(state, gutter);
  return gutter;
}

/** How many of the sorted `values` are below `limit` (binary search). */
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}


/** The review: its state, the guard on kept text, what is drawn, and the gutter's numbers. */
export function reviewExtension(actions: () => ReviewActions): Extension {
  // Drawn again when the selection moves too: the header says how many lines Accept takes.
  const drawing = EditorView.decorations.compute([reviewField, 'selection'], (state) => drawn(state, actions));
  // A click or a move into a hunk makes it the current one.
  const follow = EditorView.updateListener.of((update) => {
    if (!update.selectionSet || !update.view.hasFocus) return;
    const hunkId = hunkAt(update.state, update.state.selection.main.head);
    if (hunkId !== null && hunkId !== update.state.field(reviewField).current) actions().enter(hunkId);
  });
  return [reviewField, guard, wholeRunDeletion, drawing, follow, theme, pinnedHeaders];
}
