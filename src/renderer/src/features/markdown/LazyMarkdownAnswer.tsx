/**
 * The Markdown renderer loads on first use (it is a fifth of the bundle): the bar
 * starts loading it when it opens, and until it is in, the answer shows as plain text.
 */
import { lazy, Suspense } from 'react';

const load = () => import('./MarkdownAnswer');
const Markdown = lazy(() => load().then((module) => ({ default: module.MarkdownAnswer })));

/** Starts loading the renderer ahead of the first answer. */
export function preloadMarkdown(): void {
  void load();
}

/** `text`, the answer's whole lines, and after them `tail`, the prose still arriving. */
export function MarkdownAnswer({ text, tail = '' }: { text: string; tail?: string }) {
  return (
    <Suspense fallback={<div className="markdown plain">{text + tail}</div>}>
      <Markdown text={text} tail={tail} />
    </Suspense>
  );
}
