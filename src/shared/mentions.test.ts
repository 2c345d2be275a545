import { describe, expect, it } from 'vitest';
import { completeMention, mentionAtCaret, mentionFor, parseMentions, uniqueMentions } from './mentions';

/** The mentions of a question, as `text` (path-shaped or not). */
const found = (question: string) => parseMentions(question).map((mention) => `${mention.text}${mention.isPathShaped ? '' : ' (maybe)'}`);

describe('parseMentions', () => {
  it.each<[string, string, string[]]>([
    ['a plain path', 'what does @src/a.ts do?', ['src/a.ts']],
    ['several, in order', '@src/a.ts calls @lib/b.ts', ['src/a.ts', 'lib/b.ts']],
    ['sentence punctuation after it', 'compare @src/a.ts, @src/b.ts; and @c.md.', ['src/a.ts', 'src/b.ts', 'c.md']],
    ['a question mark and an exclamation mark', 'is @a.ts wrong?! and @b.ts?', ['a.ts', 'b.ts']],
    ['a line number after a colon', 'see @src/a.ts:12', ['src/a.ts']],
    ['in brackets', 'the helper (@src/util.ts) and [@lib/x.js]', ['src/util.ts', 'lib/x.js']],
    ['after a quote', 'file "@src/a.ts"', ['src/a.ts']],
    ['unicode folders and names', 'look at @src/ü/naïve.ts and @文档/说明.md', ['src/ü/naïve.ts', '文档/说明.md']],
    ['a unicode extension', 'open @notes/plan.тxt', ['notes/plan.тxt']],
    ['a quoted path with spaces', 'read @"docs/my notes.md" please', ['docs/my notes.md']],
    ['a dotfile', 'what is in @.env.example', ['.env.example']],
    ['climbing out (kept whole, so main can refuse it)', 'read @../secret.txt and @..', ['../secret.txt', '..']],
    ['an absolute path', 'read @/etc/passwd', ['/etc/passwd']],
    ['a home path', 'read @~/.ssh/id_rsa', ['~/.ssh/id_rsa']],
    ['a Windows drive path', 'read @C:\\Users\\me\\x.txt', ['C:\\Users\\me\\x.txt']],
    ['a folder-like word: main decides', 'everything in @src/lib', ['src/lib (maybe)']],
    ['a bare word: main decides', 'see @Makefile', ['Makefile (maybe)']],
    ['a decorator', '@Component({ selector: "x" }) class A {}', ['Component (maybe)']],
    ['a Java annotation and a JSDoc tag', '@Override void f() and @param x', ['Override (maybe)', 'param (maybe)']],
    ['an npm scope', 'bump @types/node', ['types/node (maybe)']],
    ['at the very start', '@a.ts', ['a.ts']],
  ])('finds %s', (_case, question, expected) => {
    expect(found(question)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['an email address', 'mail me@example.com about it'],
    ['user@host', 'ssh deploy@build.example.org'],
    ['a lone @', 'meet @ noon'],
    ['a double @', 'see @@a.ts'],
    ['an @ glued to a word', 'the foo@bar.ts thing'],
    ['an empty quote', 'see @"" here'],
  ])('finds nothing in %s', (_case, question) => {
    expect(parseMentions(question)).toEqual([]);
  });

  it('records where each mention is, its @ included', () => {
    const question = 'why @src/a.ts?';
    const [mention] = parseMentions(question);
    expect(question.slice(mention!.start, mention!.end)).toBe('@src/a.ts');
  });

  it('keeps the first of repeated mentions', () => {
    expect(uniqueMentions('@a.ts then @b.ts then @a.ts').map((mention) => mention.text)).toEqual(['a.ts', 'b.ts']);
  });
});

describe('completion helpers', () => {
  it.each<[string, number, { start: number; query: string } | null]>([
    ['why @sr', 7, { start: 4, query: 'sr' }],
    ['@', 1, { start: 0, query: '' }],
    ['why @src/a.ts and', 17, null],
    ['me@exa', 6, null],
    ['@"docs/my no', 12, { start: 0, query: 'docs/my no' }],
    ['@"docs/my notes.md" x', 21, null],
  ])('the mention being typed in %j at %i', (text, caret, expected) => {
    const at = mentionAtCaret(text, caret);
    expect(at === null ? null : { start: at.start, query: at.query }).toEqual(expected);
  });

  it('replaces the typed part, word after the caret included, and adds a space', () => {
    const text = 'why @srtail does';
    const at = mentionAtCaret(text, 7)!;
    expect(completeMention(text, at.start, at.end, 'src/a.ts')).toEqual({ text: 'why @src/a.ts does', caret: 14 });
  });

  it('quotes a path with a space, so it parses back whole', () => {
    expect(mentionFor('docs/my notes.md')).toBe('@"docs/my notes.md"');
    const completed = completeMention('@do', 0, 3, 'docs/my notes.md');
    expect(parseMentions(completed.text).map((mention) => mention.text)).toEqual(['docs/my notes.md']);
  });
});
