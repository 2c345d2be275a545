/**
 * The Markdown renderer loads on first use (it is a fifth of the bundle): the bar
 * starts loading it when it opens, and until it is in, the answer shows as plain text.
 *
 * Not React.lazy with Suspense: a render that suspends may not be committed at all, and
 * a streaming answer renders once a frame — under load its text stayed frozen at what
 * the first render showed until the module came (TurnProse.tsx). This never suspends:
 * plain text is rendered, and committed, until the module is in.
 */
import { useEffect, useState } from 'react';

type MarkdownModule = typeof import('./MarkdownAnswer');

let loaded: MarkdownModule | null = null;
let loading: Promise<MarkdownModule> | null = null;

function load(): Promise<MarkdownModule> {
  loading ??= import('./MarkdownAnswer').then((module) => {
    loaded = module;
    // Its first parse runs cold code: done now, while nothing waits, not in the first answer's first words.
    requestIdleCallback(() => module.warmUp(), { timeout: 1000 });
    return module;
  });
  return loading;
}

/** Starts loading the renderer ahead of the first answer. */
export function preloadMarkdown(): void {
  void load().catch(() => (loading = null));
}

/** `text`, the answer's whole lines, and after them `tail`, the prose still arriving. */
export function MarkdownAnswer({ text, tail = '' }: { text: string; tail?: string }) {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (module) return;
    let live = true;
    load().then(
      (ready) => live && setModule(ready),
      // A failed load (the server went away) leaves the plain text; the next answer tries again.
      () => (loading = null),
    );
    return () => {
      live = false;
    };
  }, [module]);
  if (!module) return <div className="markdown plain">{text + tail}</div>;
  return <module.MarkdownAnswer text={text} tail={tail} />;
}
