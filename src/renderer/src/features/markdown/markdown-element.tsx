/**
 * An answer's block of Markdown as React elements. Model output is untrusted: raw HTML is
 * not rendered, links are shown as text with their address (never followed from here),
 * images as their alt text. Code blocks are highlighted; a plain paragraph (the open block
 * of most streaming prose) is read without the parser (plain-paragraph.ts).
 */
import { useEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import type { LanguageSupport } from '@codemirror/language';
import type { ElementContent } from 'hast';
import { findLanguage, highlightRuns } from './highlight-code';
import { plainParagraph, type PlainRun } from './plain-paragraph';
import { remarkGfmOnce } from './remark-gfm-once';

const REMARK_PLUGINS = [remarkGfmOnce];

/** `text` parsed and rendered to React elements: untrusted, so no raw HTML, and links as text. A plain paragraph needs no parser (plain-paragraph.ts). */
export function markdownElement(text: string): ReactElement {
  const plain = plainParagraph(text);
  if (plain !== null) return plainElement(plain);
  return parsedElement(text);
}

/** Whether the parser has run on this page (its first run compiles its code as it goes: MarkdownAnswer's warmUp). */
let parsed = false;
export const parserIsWarm = (): boolean => parsed;

/** `text` through the parser: what any block renders to. */
export function parsedElement(text: string): ReactElement {
  parsed = true;
  return Markdown({ children: text, remarkPlugins: REMARK_PLUGINS, components, skipHtml: true });
}

/**
 * A plain paragraph's elements, as react-markdown makes them: a fragment around one
 * paragraph, its code spans through the same component, children keyed by tag and count.
 * A block that goes from one path to the other as it grows keeps its elements, code spans
 * included (a selection in them too).
 */
export function plainElement(runs: readonly PlainRun[]): ReactElement {
  let codes = 0;
  const children = runs.map((run) => ('code' in run ? <InlineCode key={`code-${codes++}`}>{run.code}</InlineCode> : run.text));
  return (
    <>
      <p key="p-0">{children.length === 1 ? children[0] : children}</p>
    </>
  );
}

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

/** The code component, for a plain paragraph's code spans (plainElement): inline, as it has no language and no line break. */
const InlineCode = components.code!;

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
