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

export function MarkdownAnswer({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="markdown plain">{text}</div>}>
      <Markdown text={text} />
    </Suspense>
  );
}
