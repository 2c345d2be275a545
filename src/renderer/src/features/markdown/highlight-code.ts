/**
 * Syntax highlighting for code blocks in answers, with the parsers the file view
 * already ships (CodeMirror's language data) and Lezer's class highlighter (`tok-*`
 * classes styled in styles.css), so no inline styles meet the strict CSP.
 */
import { LanguageDescription, type LanguageSupport } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { classHighlighter, highlightCode } from '@lezer/highlight';

/** Splits `code` into runs of text and their token classes ('' for plain text). */
export function highlightRuns(code: string, support: LanguageSupport): Array<{ text: string; className: string }> {
  const runs: Array<{ text: string; className: string }> = [];
  const tree = support.language.parser.parse(code);
  highlightCode(
    code,
    tree,
    classHighlighter,
    (text, classes) => runs.push({ text, className: classes }),
    () => runs.push({ text: '\n', className: '' }),
  );
  return runs;
}

/** The language a fence names (`ts`, `python`, `rust`…), if CodeMirror knows it. */
export function findLanguage(name: string): LanguageDescription | null {
  if (!name) return null;
  return LanguageDescription.matchLanguageName(languages, name, true);
}
