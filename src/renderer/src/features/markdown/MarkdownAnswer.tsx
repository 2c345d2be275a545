/**
 * A streamed answer rendered as Markdown (react-markdown + GitHub tables and lists),
 * code blocks highlighted. Model output is untrusted: raw HTML is not rendered, links
 * are shown as text with their address (never followed from here), images as their
 * alt text.
 *
 * Rendered block by block (markdown-blocks.ts): as the answer grows, only its last block
 * is parsed and rendered again; `tail` (the prose still arriving) joins that block. The
 * closed blocks sit in one container, painted as one layer (styles.css): a frame that grows
 * the open block paints that block alone.
 */
import { memo, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { remarkGfmOnce } from './remark-gfm-once';
import type { LanguageSupport } from '@codemirror/language';
import type { ElementContent } from 'hast';
import { findLanguage, highlightRuns } from './highlight-code';
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

const REMARK_PLUGINS = [remarkGfmOnce];

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
 * fenced block. Once an answer has been formatted its parse did the warming: then this does
 * nothing (false), rather than take a task in the middle of a stream.
 */
export function warmUp(): boolean {
  if (rendered.size > 0) return false;
  markdownElement(WARM_UP_SAMPLE);
  return true;
}

/** `text` parsed and rendered to React elements: untrusted, so no raw HTML, and links as text. */
function markdownElement(text: string): ReactElement {
  return Markdown({ children: text, remarkPlugins: REMARK_PLUGINS, components, skipHtml: true });
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

const components: Components = {
  a: ({ children, href }) => (
    <span className="md-link" title={href}>
      {children}
    </span>
  ),
  img: ({ alt }) => <span className="md-image">[{alt || 'image'}]</span>,
  pre: ({ children }) => <>{children}</>,
  // A wide table scrolls sideways in its own box (its cells never break a word, styles.css):
  // a region with a name and a Tab stop, so the keyboard can scroll it too.
  table: ({ children, node }) => (
    <div className="md-table" role="region" tabIndex={0} aria-label={tableLabel(node?.children ?? [])}>
      <table>{children}</table>
    </div>
  ),
  code: ({ className, children }) => {
    const language = /language-([\w+#.-]+)/.exec(className ?? '')?.[1];
    const code = String(children ?? '');
    // Fenced blocks carry a language class or end in a newline; inline code does neither.
    if (language === undefined && !code.includes('\n')) return <code className="md-inline-code">{children}</code>;
    // Keyed by its language: the open block's elements are reused by the next block, whose code may be in another.
    return <CodeBlock key={language ?? ''} language={language ?? ''} code={code.replace(/\n$/, '')} />;
  },
};

function CodeBlock({ language, code }: { language: string; code: string }) {
  const description = useMemo(() => findLanguage(language), [language]);
  const [support, setSupport] = useState<LanguageSupport | null>(description?.support ?? null);
  useEffect(() => {
    if (!description || description.support) return;
    let live = true;
    void description.load().then((loaded) => live && setSupport(loaded), () => undefined);
    return () => {
      live = false;
    };
  }, [description]);
  const body: ReactNode = useMemo(() => {
    const loaded = support ?? description?.support;
    if (!loaded) return code;
    return highlightRuns(code, loaded).map((run, index) => (run.className ? <span key={index} className={run.className}>{run.text}</span> : run.text));
  }, [code, support, description]);
  return (
    // A long line scrolls sideways inside the block: a named region with a Tab stop, so the keyboard can scroll it.
    <pre className="md-code" data-language={language || undefined} role="region" tabIndex={0} aria-label={language ? `Code, ${language}` : 'Code'}>
      <code>{body}</code>
    </pre>
  );
}

/** "Table: Name, Type, Default…": its first header cells, so two tables in one answer are told apart. */
function tableLabel(rows: readonly ElementContent[]): string {
  const head = rows.find((child) => child.type === 'element' && child.tagName === 'thead');
  const firstRow = head?.type === 'element' ? head.children.find((child) => child.type === 'element') : undefined;
  const headers = firstRow?.type === 'element' ? firstRow.children.filter((cell) => cell.type === 'element').map(textOf).filter(Boolean) : [];
  if (headers.length === 0) return 'Table';
  return `Table: ${headers.slice(0, 3).join(', ')}${headers.length > 3 ? '…' : ''}`;
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value.trim();
  return node.type === 'element' ? node.children.map(textOf).join(' ').trim() : '';
}
