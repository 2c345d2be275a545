/**
 * GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks, footnotes) for
 * remark, its syntax built once.
 *
 * remark-gfm builds its micromark and mdast extensions each time a processor is set up, and
 * react-markdown sets one up at every render: for a block still streaming, re-rendered at
 * every batch, that was an eighth of the render. The extensions are plain data, read and
 * never changed by a parse, so one copy serves every parse. Flint never turns Markdown back
 * into text, so remark-gfm's serializer extension is left out.
 */
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

const SYNTAX = gfm();
const TREE = gfmFromMarkdown();

/** What of a unified processor the plugin touches: its data, where remark's parser finds its extensions. */
interface WithData {
  data(): object;
}

export function remarkGfmOnce(this: WithData): void {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(SYNTAX);
  (data.fromMarkdownExtensions ??= []).push(TREE);
}
