/**
 * A read-only CodeMirror view of one hunk, grown by transactions as lines stream in.
 *
 * Lines are shown with their diff prefix and coloured by it; appending is one
 * transaction at the end of the document, never a re-render of what is there.
 */
import { RangeSetBuilder, StateField, type EditorState } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import type { HunkLine } from '../../../../shared/edits/edit-types';

const added = Decoration.line({ class: 'hunk-add' });
const removed = Decoration.line({ class: 'hunk-remove' });

function decorate(state: EditorState): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (let number = 1; number <= state.doc.lines; number += 1) {
    const line = state.doc.line(number);
    const prefix = line.text[0];
    if (prefix === '+') builder.add(line.from, line.from, added);
    else if (prefix === '-') builder.add(line.from, line.from, removed);
  }
  return builder.finish();
}

/** Recomputes only when the document changes (appends), which is cheap for hunk-sized documents. */
const lineColours = StateField.define<DecorationSet>({
  create: decorate,
  update: (value, transaction) => (transaction.docChanged ? decorate(transaction.state) : value),
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme(
  {
    '&': { backgroundColor: 'var(--editor-bg)', color: 'var(--text)', fontSize: '12.5px' },
    '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.45', maxHeight: '360px', overflow: 'auto' },
    '.hunk-add': { backgroundColor: 'rgba(63,185,80,0.16)' },
    '.hunk-remove': { backgroundColor: 'rgba(229,83,75,0.16)' },
    '.cm-content': { padding: '2px 0' },
  },
  { dark: true },
);

const prefixOf = { context: ' ', remove: '-', add: '+' } as const;

export class HunkEditor {
  private readonly view: EditorView;
  private lineCount = 0;

  /** Mounted in a shadow root: constructable stylesheets keep the strict CSP intact. */
  constructor(host: HTMLElement) {
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    this.view = new EditorView({
      parent: shadow,
      root: shadow,
      extensions: [EditorView.editable.of(false), EditorView.lineWrapping, lineColours, theme],
    });
  }

  /** Appends lines at the end in one transaction. */
  append(lines: readonly HunkLine[]): void {
    if (lines.length === 0) return;
    const text = lines.map((line) => `${prefixOf[line.kind]}${line.text}`).join('\n');
    const insert = this.lineCount === 0 ? text : `\n${text}`;
    this.lineCount += lines.length;
    this.view.dispatch({ changes: { from: this.view.state.doc.length, insert } });
  }

  destroy(): void {
    this.view.destroy();
  }
}
