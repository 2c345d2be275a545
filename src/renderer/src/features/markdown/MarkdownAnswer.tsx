/**
 * A streamed answer rendered as Markdown (react-markdown + GitHub tables and lists, code
 * blocks highlighted, untrusted: markdown-element.tsx).
 *
 * Rendered block by block (markdown-blocks.ts): as the answer grows, only its last block
 * is parsed and rendered again; `tail` (the prose still arriving) joins that block. The
 * closed blocks sit in one container, painted as one layer (styles.css): a frame that grows
 * the open block paints that block alone.
 */
import { memo, useMemo, useRef, type ReactElement } from 'react';
import { markdownElement, parserIsWarm } from './markdown-element';
import { splitMarkdown, type MarkdownBlocks } from './markdown-blocks';

export const MarkdownAnswer = memo(function MarkdownAnswer({ text, tail = '' }: { text: string; tail?: string }) {
  const split = useRef<MarkdownBlocks | undefined>(undefined);
  const blocks = useMemo(() => (split.current = splitMarkdown(text, split.current)), [text]);
  const open = text.slice(blocks.openStart) + tail;
  return (
    <div className="markdown">
      {blocks.closed.length > 0 && (
        <div className="markdown-closed">
          {blocks.closed.map((block, index) => (
            <MarkdownBlock key={index} text={block} />
          ))}
        </div>
      )}
      {open && <MarkdownBlock key="open" text={open} />}
    </div>
  );
});

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return renderedBlock(text);
});

/**
 * The blocks rendered last, by their text. The ask bar and the pane show the same answer:
 * each open block is parsed once a frame, not once per view. `Markdown` is a plain function
 * of its props (no hooks), so its element is shared as any other; the components in it
 * (a code block loading its language) keep their own state per place.
 */
const rendered = new Map<string, ReactElement>();
const RENDERED_KEPT = 16;

function renderedBlock(text: string): ReactElement {
  let element = rendered.get(text);
  if (element === undefined) {
    element = markdownElement(text);
    rendered.set(text, element);
    if (rendered.size > RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
  }
  return element;
}

/**
 * Parses and renders a sample answer once, ahead of the first real one (LazyMarkdownAnswer
 * calls it when the browser is idle after loading this module). The first parse of a page
 * compiles micromark's and remark-gfm's code as it runs: 10–20 ms on a 2-core machine, and
 * it ran inside the task that put the first answer's first words in the DOM. The sample
 * takes the paths answers take: a heading, emphasis, inline code, a link, a list, a table, a
 * fenced block. Once an answer has been parsed that parse did the warming: then this does
 * nothing (false), rather than take a task in the middle of a stream.
 */
export function warmUp(): boolean {
  if (parserIsWarm()) return false;
  markdownElement(WARM_UP_SAMPLE);
  return true;
}

/** What warmUp parses. */
export const WARM_UP_SAMPLE = [
  '## Why it fails',
  '',
  'The **loop** reads `items[i + 1]` past the end; see [the docs](https://example.com) and www.example.com.',
  '',
  '1. Check the bound.',
  '2. ~~Guess~~ test it:',
  '   - [x] done',
  '',
  '| Name | Type |',
  '| - | - |',
  '| `i` | number |',
  '',
  '```ts',
  'for (let i = 0; i < items.length; i += 1) use(items[i]);',
  '```',
  '',
].join('\n');
