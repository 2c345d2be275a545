/**
 * How the diff inside the file looks (CodeMirror styles itself in its shadow root, so these
 * live in a theme, not in the page's CSS).
 */
import { EditorView } from '@codemirror/view';

export const reviewTheme = EditorView.theme({
  // Dark enough that every syntax colour keeps 4.5:1 on them (axe-core checks).
  '.cm-flint-remove': { backgroundColor: '#3d161b' },
  '.cm-flint-add': { backgroundColor: '#143220' },
  '.cm-flint-context.is-current, .cm-flint-remove.is-current, .cm-flint-add.is-current': { boxShadow: 'inset 3px 0 0 var(--accent, #61afef)' },
  // Words that changed: a little lighter and underlined (a brighter fill would cost contrast).
  '.cm-flint-word-removed': { backgroundColor: '#4c1b22', boxShadow: 'inset 0 -2px 0 #f47067' },
  '.cm-flint-word-added': { backgroundColor: '#1a3f28', boxShadow: 'inset 0 -2px 0 #3fb950' },
  '.cm-flint-hunk-header': {
    display: 'flex',
    // A narrow file view (800 px windows) puts the buttons under the title.
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: '8px',
    padding: '2px 8px',
    fontFamily: 'var(--sans, system-ui)',
    fontSize: '12px',
    color: 'var(--text, #e6e6e6)',
    backgroundColor: 'var(--surface-2, #2a2f38)',
    borderTop: '1px solid var(--border, #3a404b)',
  },
  '.cm-flint-hunk-header.is-current': { backgroundColor: 'var(--current-hunk-bg, #23354d)', outline: '1px solid var(--accent, #61afef)' },
  '.cm-flint-hunk-title': { flex: '1' },
  '.cm-flint-hunk-header button': {
    font: 'inherit',
    color: 'inherit',
    background: 'var(--button-bg, #353b45)',
    border: '1px solid var(--border, #4a505b)',
    borderRadius: '4px',
    padding: '1px 8px',
    cursor: 'pointer',
  },
  // The selection shows over the diff's line colours (drawn under the text, it would be hidden).
  // (code-editor.ts makes it translucent, so the text stays readable under it).
  '.cm-selectionLayer': { zIndex: '1 !important', pointerEvents: 'none' },
  '.cm-flint-hunk-header kbd': { fontSize: '11px', marginLeft: '4px', fontFamily: 'var(--mono)' },
});
