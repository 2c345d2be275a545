/**
 * The Markdown renderer is loaded apart (it is a fifth of the bundle): at the app's first
 * idle moment, or when the bar opens if that comes first; until it is in, the answer shows
 * as plain text.
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

/**
 * The idle time the warm-up waits for, in ms: a browser with nothing to draw offers up to
 * 50; between a stream's frames it offers what is left of the frame, and the warm-up (10–20
 * ms on a 2-core machine) would hold up the next one, or a hunk's first paint.
 */
const WARM_UP_IDLE_MS = 40;

function load(): Promise<MarkdownModule> {
  loading ??= import('./MarkdownAnswer').then((module) => {
    loaded = module;
    // Its first parse runs cold code: done at a long idle moment, not in the first answer's first words.
    warmUpWhenIdle(module);
    return module;
  });
  return loading;
}

/** Warms the parser up at the first idle period long enough for it (see WARM_UP_IDLE_MS); warmUp skips it once the parser has run. */
function warmUpWhenIdle(module: MarkdownModule): void {
  requestIdleCallback((deadline) => {
    if (deadline.timeRemaining() < WARM_UP_IDLE_MS) return warmUpWhenIdle(module);
    module.warmUp();
  });
}

/** Starts loading the renderer ahead of the first answer (the app's first idle moment, the bar's opening). */
export function preloadMarkdown(): void {
  void load().catch(() => (loading = null));
}

/** Loads (and warms up) the renderer at the app's first idle moment: an opening of the bar soon after never waits for it. */
export function useMarkdownPreloadWhenIdle(): void {
  useEffect(() => {
    const idle = requestIdleCallback(preloadMarkdown);
    return () => cancelIdleCallback(idle);
  }, []);
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
