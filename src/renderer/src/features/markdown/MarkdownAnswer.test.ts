/**
 * What the answer's Markdown renders to (react-dom's server renderer, no browser): GitHub's
 * extensions through remarkGfmOnce, raw HTML never rendered, links never followed, and an
 * answer rendered block by block, with its tail, as the same text rendered at once.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { MarkdownAnswer, WARM_UP_SAMPLE } from './MarkdownAnswer';

const render = (text: string, tail?: string): string => renderToStaticMarkup(createElement(MarkdownAnswer, { text, ...(tail !== undefined ? { tail } : {}) }));

describe('MarkdownAnswer', () => {
  it('renders GitHub tables, strikethrough, task lists and autolinks, at every render alike', () => {
    const text = '| a | b |\n| - | - |\n| 1 | 2 |\n\n~~gone~~ and www.example.com\n\n- [x] done\n- [ ] to do\n';
    for (let round = 0; round < 3; round += 1) {
      const html = render(text);
      expect(html).toContain('<table>');
      expect(html).toContain('<td>2</td>');
      expect(html).toContain('<del>gone</del>');
      expect(html).toContain('<span class="md-link" title="http://www.example.com">www.example.com</span>');
      expect(html).toMatch(/<input type="checkbox" disabled="" checked=""\/> done/);
    }
  });

  it('puts each table in a named, focusable region of its own, so a wide one scrolls there from the keyboard', () => {
    const html = render('| Name | Type | Default | Notes |\n| - | - | - | - |\n| a | b | c | d |\n\n| `x` |\n| - |\n| 1 |\n\n| |\n| - |\n| 1 |\n');
    expect(html).toContain('<div class="md-table" role="region" tabindex="0" aria-label="Table: Name, Type, Default…"><table>');
    expect(html).toContain('aria-label="Table: x"');
    expect(html).toContain('aria-label="Table"');
  });

  it('puts a code block in a named, focusable region, so a long line scrolls there from the keyboard', () => {
    expect(render('```ts\nconst a = 1;\n```\n')).toMatch(/^<div class="markdown"><pre class="md-code" data-language="ts" role="region" tabindex="0" aria-label="Code, ts">/);
    expect(render('```\nplain\n```\n')).toContain('role="region" tabindex="0" aria-label="Code"');
  });

  it('never renders raw HTML nor a link to follow', () => {
    const html = render('<script>alert(1)</script>\n\n<b>bold?</b> [click](javascript:alert(1)) ![pic](https://example.com/a.png)\n');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<a ');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<span class="md-image">[pic]</span>');
  });

  it('renders an answer and its tail as the same text rendered whole', () => {
    const text = '# Plan\n\nFirst **bold** line\nsecond line\n\n```ts\nconst a = 1;\n';
    expect(render(text, 'const b = 2;')).toBe(render(`${text}const b = 2;`));
    expect(render('A paragraph still ', 'arriving')).toBe(render('A paragraph still arriving'));
  });

  it('keeps the blocks that no longer change in one container (painted as one), and the block still growing after it', () => {
    expect(render('# Plan\n\nFirst step.\n\nStill ', 'growing')).toBe(
      '<div class="markdown"><div class="markdown-closed"><h1>Plan</h1><p>First step.</p></div><p>Still growing</p></div>',
    );
    expect(render('Only the open block')).toBe('<div class="markdown"><p>Only the open block</p></div>');
  });

  it('warms up on a sample that takes the paths answers take: heading, emphasis, code, link, lists, table, fence', () => {
    const html = render(WARM_UP_SAMPLE);
    for (const part of ['<h2>', '<strong>', '<code class="md-inline-code">', 'class="md-link"', '<ol>', '<ul', '<del>', 'type="checkbox"', '<table>', '<pre class="md-code" data-language="ts"']) {
      expect(html, part).toContain(part);
    }
  });

  it('warms up before the first answer is parsed, and not after: the answer warmed the parser, and a stream is no time for a sample', async () => {
    vi.resetModules();
    const fresh = await import('./MarkdownAnswer');
    // A plain paragraph is read without the parser (plain-paragraph.ts): the parser is still cold.
    renderToStaticMarkup(createElement(fresh.MarkdownAnswer, { text: 'The first answer, plain.\n' }));
    expect(fresh.warmUp()).toBe(true);
    vi.resetModules();
    const other = await import('./MarkdownAnswer');
    renderToStaticMarkup(createElement(other.MarkdownAnswer, { text: 'The first *answer*.\n' }));
    expect(other.warmUp()).toBe(false);
  });
});
