/**
 * The CodeMirror 6 view of a file, with the hunks waiting in it drawn in place (editable
 * only in their added lines, see review-extension.ts); document and language swap in place.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { defaultHighlightStyle, HighlightStyle, LanguageDescription, syntaxHighlighting } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, Transaction } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { HunkRevision } from '../../../../shared/edits/hunk-types';
import { baseName } from '../../../../shared/paths';
import type { ReviewDoc } from '../review/review-doc';
import { blocksNow, fileLineLabel, hunkAt, newLinesNow, isEdited, reviewExtension, reviewField, setCurrentHunk, setReviewBlocks, type ReviewActions } from '../review/review-extension';
import { revisionFor } from '../review/review-revision';
import { clearOfPanels } from './clear-of-panels';
import { redrawChanges } from './redraw-changes';

// Colours hold 4.5:1 on the editor and on the diff's green and red lines (axe-core checks them).
const darkHighlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.modifier, tags.controlKeyword], color: '#d291e4' },
  { tag: [tags.string, tags.special(tags.string)], color: '#98c379' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: '#d19a66' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: '#9aa1ad', fontStyle: 'italic' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: '#61afef' },
  { tag: [tags.typeName, tags.className, tags.namespace], color: '#e5c07b' },
  { tag: [tags.propertyName, tags.attributeName], color: '#e8838a' },
  { tag: [tags.tagName, tags.heading], color: '#e8838a', fontWeight: 'bold' },
  { tag: [tags.operator, tags.punctuation], color: '#abb2bf' },
  { tag: [tags.regexp, tags.escape], color: '#56b6c2' },
  { tag: tags.link, color: '#61afef', textDecoration: 'underline' },
]);

const theme = EditorView.theme(
  {
    '&': { height: '100%', backgroundColor: 'var(--editor-bg)', color: 'var(--text)' },
    '.cm-scroller': { fontFamily: 'var(--mono)', fontSize: '13px', lineHeight: '1.5' },
    '.cm-gutters': { backgroundColor: 'var(--editor-bg)', color: 'var(--text-dim)', border: 'none' },
    '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'rgba(255,255,255,0.04)' },
    // Translucent: the review draws the selection over the diff's line colours (review-extension.ts).
    // As specific as CodeMirror's own dark rule (an opaque #233), or it would win.
    '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground': { background: 'rgba(97, 175, 239, 0.25)' },
    '.cm-cursor': { borderLeftColor: 'var(--accent)' },
  },
  { dark: true },
);

export class CodeEditor {
  readonly view: EditorView;
  private readonly language = new Compartment();
  private readonly undoHistory = new Compartment();
  private languageRequest = 0;

  /**
   * Mounts inside a shadow root of `host`: there CodeMirror styles itself with
   * constructable stylesheets instead of <style> tags, which the strict CSP
   * (`style-src 'self'`, no 'unsafe-inline') would block.
   */
  constructor(host: HTMLElement, actions: () => ReviewActions) {
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    this.view = new EditorView({
      parent: shadow,
      root: shadow,
      state: EditorState.create({
        doc: '',
        extensions: [
          // Numbers of the file on disk: added lines are not in it yet.
          lineNumbers({ formatNumber: (line, state) => fileLineLabel(state, line) }),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          drawSelection(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          syntaxHighlighting(darkHighlight),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          // Editable only where a hunk adds text (review-extension.ts guards the rest).
          this.undoHistory.of(history()),
          // A name for screen readers; tabindex says what contenteditable implies, so axe sees
          // that the scroller around it can be reached from the keyboard.
          EditorView.contentAttributes.of({ 'aria-label': 'File contents', tabindex: '0' }),
          keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap]),
          reviewExtension(actions),
          clearOfPanels,
          this.language.of([]),
          theme,
        ],
      }),
    });
  }

  /**
   * Shows `review` (the file, with its hunks in place) for `path`. On a reload of the same
   * file, scroll and cursor stay put.
   */
  show(path: string, review: ReviewDoc, isReload: boolean): void {
    const { text } = review;
    const scrollTop = this.view.scrollDOM.scrollTop;
    this.view.dispatch({
      // Drawn again (a hunk came or went, the file was saved): only the lines that differ are
      // replaced, so the parser, the decorations and the cursor move only there.
      changes: isReload ? redrawChanges(this.view.state.doc, text) : { from: 0, to: this.view.state.doc.length, insert: text },
      ...(isReload ? {} : { selection: { anchor: 0 } }),
      effects: setReviewBlocks.of(review.blocks),
      // A new drawing is not something the user's Undo takes back.
      annotations: Transaction.addToHistory.of(false),
    });
    this.view.scrollDOM.scrollTop = isReload ? scrollTop : 0;
    if (isReload) return;
    // Another file: the editor's own Undo must not replay an edit made in the last one.
    this.view.dispatch({ effects: this.undoHistory.reconfigure([]) });
    this.view.dispatch({ effects: this.undoHistory.reconfigure(history()) });
    void this.setLanguageFor(path);
  }

  /** The new text of each hunk the user edited in place (kept when the blocks are drawn again). */
  editedTexts(): Map<string, string[]> {
    return new Map(blocksNow(this.view.state).filter(isEdited).map((block) => [block.hunkId, newLinesNow(block)]));
  }

  /** Whether the cursor is in added text of a hunk the user edited (there, word deletion is typing). */
  isEditingAtCursor(): boolean {
    if (!this.view.hasFocus) return false;
    const head = this.view.state.selection.main.head;
    const block = blocksNow(this.view.state).find((candidate) => candidate.from <= head && head <= candidate.to);
    return block !== undefined && isEdited(block) && block.lines.some((line) => line.kind === 'add' && line.from <= head && head <= line.to);
  }

  /** The hunks the user edited in place, each with its edit (Accept all takes them so). */
  editedRevisions(): Record<string, HunkRevision> {
    return Object.fromEntries(blocksNow(this.view.state).filter(isEdited).map((block) => [block.hunkId, { kind: 'edited', newLines: newLinesNow(block) }]));
  }

  /** What Accept takes of `hunkId`: the user's edit, the selected lines, or (undefined) the whole hunk. */
  revisionOf(hunkId: string): HunkRevision | undefined {
    return revisionFor(this.view.state, hunkId);
  }

  /** Marks `hunkId` as the one the keys act on and, if asked, brings it into view. */
  setCurrent(hunkId: string | null, reveal: boolean): void {
    // Asked after every drawing: a transaction that changes nothing still costs a view update.
    if (!reveal && this.view.state.field(reviewField).current === hunkId) return;
    const block = hunkId === null ? undefined : blocksNow(this.view.state).find((candidate) => candidate.hunkId === hunkId);
    this.view.dispatch({ effects: [setCurrentHunk.of(hunkId), ...(reveal && block ? [EditorView.scrollIntoView(block.from, { y: 'center' })] : [])] });
  }

  /** The hunk the cursor is in while the view has focus (the keys act on it), or null. */
  hunkAtCursor(): string | null {
    return this.view.hasFocus ? hunkAt(this.view.state, this.view.state.selection.main.head) : null;
  }

  /**
   * Puts the cursor on the hunk's first added (else first changed) line and focuses the view;
   * with `selectLine`, that line is selected whole (Shift+↓ then takes the next ones). False if
   * the hunk is not drawn.
   */
  focusHunk(hunkId: string, selectLine = false): boolean {
    const block = blocksNow(this.view.state).find((candidate) => candidate.hunkId === hunkId);
    if (!block) return false;
    const line = block.lines.find((candidate) => candidate.kind === 'add') ?? block.lines.find((candidate) => candidate.kind === 'remove') ?? block.lines[0]!;
    const selection = selectLine ? { anchor: line.from, head: line.to } : { anchor: line.from };
    this.view.dispatch({ selection, effects: [setCurrentHunk.of(hunkId), EditorView.scrollIntoView(line.from, { y: 'center' })] });
    this.view.focus();
    return true;
  }

  /** Whether `hunkId` is drawn in the file. */
  shows(hunkId: string): boolean {
    return blocksNow(this.view.state).some((block) => block.hunkId === hunkId);
  }

  private async setLanguageFor(path: string): Promise<void> {
    const request = ++this.languageRequest;
    const description = LanguageDescription.matchFilename(languages, baseName(path));
    if (!description) {
      this.view.dispatch({ effects: this.language.reconfigure([]) });
      return;
    }
    const support = await description.load().catch(() => null);
    if (request !== this.languageRequest) return;
    this.view.dispatch({ effects: this.language.reconfigure(support ?? []) });
  }

  destroy(): void {
    this.view.destroy();
  }
}
