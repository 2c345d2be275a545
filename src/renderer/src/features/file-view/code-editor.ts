/**
 * A read-only CodeMirror 6 view whose document and language can be swapped in place.
 */
import { defaultKeymap } from '@codemirror/commands';
import { defaultHighlightStyle, HighlightStyle, LanguageDescription, syntaxHighlighting } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState } from '@codemirror/state';
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
import { baseName } from '../../../../shared/paths';

const darkHighlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.modifier, tags.controlKeyword], color: '#c678dd' },
  { tag: [tags.string, tags.special(tags.string)], color: '#98c379' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: '#d19a66' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: '#7f848e', fontStyle: 'italic' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: '#61afef' },
  { tag: [tags.typeName, tags.className, tags.namespace], color: '#e5c07b' },
  { tag: [tags.propertyName, tags.attributeName], color: '#e06c75' },
  { tag: [tags.tagName, tags.heading], color: '#e06c75', fontWeight: 'bold' },
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
    '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: '#3e4451' },
    '.cm-cursor': { borderLeftColor: 'var(--accent)' },
  },
  { dark: true },
);

export class CodeEditor {
  readonly view: EditorView;
  private readonly language = new Compartment();
  private languageRequest = 0;

  /**
   * Mounts inside a shadow root of `host`: there CodeMirror styles itself with
   * constructable stylesheets instead of <style> tags, which the strict CSP
   * (`style-src 'self'`, no 'unsafe-inline') would block.
   */
  constructor(host: HTMLElement) {
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    this.view = new EditorView({
      parent: shadow,
      root: shadow,
      state: EditorState.create({
        doc: '',
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          drawSelection(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          syntaxHighlighting(darkHighlight),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorState.readOnly.of(true),
          // A name for screen readers; tabindex says what contenteditable implies, so axe sees
          // that the scroller around it can be reached from the keyboard.
          EditorView.contentAttributes.of({ 'aria-readonly': 'true', 'aria-label': 'File contents', tabindex: '0' }),
          keymap.of([...defaultKeymap, ...searchKeymap]),
          this.language.of([]),
          theme,
        ],
      }),
    });
  }

  /**
   * Shows `text` for `path`. On a reload of the same file, scroll and cursor stay put.
   */
  show(path: string, text: string, isReload: boolean): void {
    const scrollTop = this.view.scrollDOM.scrollTop;
    const anchor = Math.min(this.view.state.selection.main.anchor, text.length);
    this.view.dispatch({
      changes: { from: 0, to: this.view.state.doc.length, insert: text },
      selection: { anchor: isReload ? anchor : 0 },
    });
    this.view.scrollDOM.scrollTop = isReload ? scrollTop : 0;
    if (!isReload) void this.setLanguageFor(path);
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
