import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../../test/helpers/collect-answer';
import * as variants from '../../../test/fixtures/edit-answers-variants';
import { EditStreamParser } from './edit-stream-parser';
import { newLinesOf, oldLinesOf, type EditEvent } from './edit-types';

const block = (path: string) => `${path}\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n`;

describe('EditStreamParser: padded envelope markers', () => {
  it('reads every envelope marker padded with spaces as that marker, in Add and Update sections alike', () => {
    const answer = parseAnswer(variants.PADDED_MARKERS);
    expect(answer.files.map((file) => [file.operation, file.path, file.moveTo])).toEqual([
      ['add', 'src/x.txt', undefined],
      ['update', 'b.txt', 'c.txt'],
      ['delete', 'd.txt', undefined],
      ['add', 'e.txt', undefined],
    ]);
    expect(answer.files[0]!.hunks[0]!.lines).toEqual([{ kind: 'add', text: 'hello' }]);
    expect(answer.files[1]!.hunks).toEqual([
      {
        hunkIndex: 1,
        contextHints: ['intro'],
        atEndOfFile: true,
        complete: true,
        lines: [
          { kind: 'context', text: '*** Note: keep me' },
          { kind: 'remove', text: 'old' },
          { kind: 'add', text: 'new' },
        ],
      },
    ]);
    expect(newLinesOf(answer.files[3]!.hunks[0]!.lines)).toEqual(['e']);
    expect(answer.prose).toEqual(['Applying the patch.', 'Done.']);
    expect(answer.problems).toEqual([]);
  });

  it('ends an Add section at a padded End Patch instead of writing it into the new file', () => {
    const answer = parseAnswer('*** Begin Patch\n*** Add File: a.txt\n+a\n *** End Patch\nAfter.\n');
    expect(newLinesOf(answer.files[0]!.hunks[0]!.lines)).toEqual(['a']);
    expect(answer.prose).toEqual(['After.']);
    expect(answer.problems).toEqual([]);
  });

  it('reads the next section after a padded Update header in an Add section, not more content of the new file', () => {
    const answer = parseAnswer('*** Begin Patch\n*** Add File: a.txt\n+a\n  *** Update File: b.txt\n@@\n-old\nnew\n*** End Patch\n');
    expect(answer.files.map((file) => file.path)).toEqual(['a.txt', 'b.txt']);
    expect(newLinesOf(answer.files[0]!.hunks[0]!.lines)).toEqual(['a']);
    expect(oldLinesOf(answer.files[1]!.hunks[0]!.lines)).toEqual(['old', 'new']);
  });

  it('ignores End of File and Move to inside an Add section, reporting each', () => {
    const answer = parseAnswer('*** Begin Patch\n*** Add File: a.txt\n+a\n *** End of File\n*** Move to: b.txt\n+b\n*** End Patch\n');
    expect(newLinesOf(answer.files[0]!.hunks[0]!.lines)).toEqual(['a', 'b']);
    expect(answer.files[0]!.moveTo).toBeUndefined();
    expect(answer.problems).toEqual(['"*** End of File" in a new file was ignored.', '"*** Move to: b.txt" in a new file was ignored.']);
  });

  it('keeps a padded line that only starts like a marker as a context line', () => {
    const answer = parseAnswer('*** Begin Patch\n*** Update File: a.ts\n *** Note\n *** End Patch soon\n-old\n+new\n*** End Patch\n');
    expect(oldLinesOf(answer.files[0]!.hunks[0]!.lines)).toEqual(['*** Note', '*** End Patch soon', 'old']);
    expect(answer.problems).toEqual([]);
  });
});

describe('EditStreamParser: bare blank lines in a patch', () => {
  it('drops blank lines that separate sections and hunks, and keeps those inside a hunk as empty context lines', () => {
    const answer = parseAnswer(variants.BLANK_SEPARATORS);
    const [a, b, c] = answer.files;
    expect(a!.hunks.map((hunk) => [hunk.contextHints, hunk.lines, hunk.atEndOfFile])).toEqual([
      [['def first'], [{ kind: 'context', text: 'def first():' }, { kind: 'remove', text: '    return 1' }, { kind: 'add', text: '    return 2' }], false],
      [
        ['def second'],
        [
          { kind: 'context', text: 'def second():' },
          { kind: 'context', text: '' },
          { kind: 'remove', text: '    pass' },
          { kind: 'add', text: '    return None' },
        ],
        true,
      ],
    ]);
    expect(b!.hunks.map((hunk) => hunk.lines.length)).toEqual([2]);
    expect(newLinesOf(c!.hunks[0]!.lines)).toEqual(['print("c")']);
    expect(answer.problems).toEqual([]);
  });

  it('holds a bare blank line until the next line of its hunk arrives', () => {
    const lines: EditEvent[] = [];
    const parser = new EditStreamParser((event) => event.type === 'hunk-line' && lines.push(event));
    parser.push('*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n\n');
    expect(lines).toHaveLength(1);
    parser.push('+b\n');
    expect(lines.map((event) => event.type === 'hunk-line' && event.line)).toEqual([
      { kind: 'remove', text: 'a' },
      { kind: 'context', text: '' },
      { kind: 'add', text: 'b' },
    ]);
  });

  it('emits an explicit " " context line at once, even at the end of a hunk', () => {
    const answer = parseAnswer('*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n \n@@\n-c\n*** End Patch\n');
    expect(answer.files[0]!.hunks[0]!.lines.at(-1)).toEqual({ kind: 'context', text: '' });
  });

  it('opens no hunk for a blank line after End of File or before End Patch, truncated or not', () => {
    for (const truncated of [false, true]) {
      const answer = parseAnswer('*** Begin Patch\n*** Update File: a.ts\n-a\n+b\n*** End of File\n\n\n*** End Patch\n\n', undefined, truncated);
      expect(answer.files[0]!.hunks).toHaveLength(1);
      expect(answer.problems).toEqual([]);
    }
  });

  it('stacks the hints of two @@ lines a blank line separates into one hunk', () => {
    const answer = parseAnswer('*** Begin Patch\n*** Update File: a.ts\n@@ class A\n\n@@ method()\n-a\n+b\n*** End Patch\n');
    expect(answer.files[0]!.hunks.map((hunk) => hunk.contextHints)).toEqual([['class A', 'method()']]);
    expect(answer.problems).toEqual([]);
  });

  it('drops the trailing blank lines of an Add section, and keeps a blank line between its lines', () => {
    const answer = parseAnswer('*** Begin Patch\n*** Add File: a.py\n+a\n\n+b\n\n\n*** End Patch\n');
    expect(newLinesOf(answer.files[0]!.hunks[0]!.lines)).toEqual(['a', '', 'b']);
    expect(answer.problems).toEqual([]);
  });
});

describe('EditStreamParser: search/replace path lines', () => {
  it('names files without a dot, and never takes a prose line between blocks for a path', () => {
    const answer = parseAnswer(variants.BARE_NAMES);
    expect(answer.files.map((file) => [file.path, file.format, file.hunks.length])).toEqual([
      ['Makefile', 'search-replace', 2],
      ['Dockerfile', 'search-replace', 1],
    ]);
    expect(answer.prose).toEqual(['Update the build files.', '', '', '...', '', '']);
    expect(answer.problems).toEqual([]);
  });

  it('takes a line of the shape of a path, and no sentence, label, heading word or rule', () => {
    const pathOf = (line: string) => parseAnswer(block(line)).files[0]!.path;
    const paths = ['Makefile', 'LICENSE', 'justfile', '.env', 'src/[id].tsx', '@scope/pkg/index.ts', '1. src/a.ts', '`Dockerfile`:', '## `Makefile`', '**CMakeLists.txt**:', 'src/a.ts:'];
    expect(paths.map(pathOf)).toEqual(['Makefile', 'LICENSE', 'justfile', '.env', 'src/[id].tsx', '@scope/pkg/index.ts', 'src/a.ts', 'Dockerfile', 'Makefile', 'CMakeLists.txt', 'src/a.ts']);
    const prose = ['...', '---', 'Here is the fix:', 'Fix:', '## Summary', 'Done.', 'https://x.io/a.ts', 'a.ts and b.ts', '```', `${'a'.repeat(301)}`];
    expect(prose.map(pathOf)).toEqual(Array(prose.length).fill(''));
  });

  it('asks the project first: an existing file wins, even with spaces in its name or a colon after it', () => {
    const files = new Set(['My Notes.md', 'Makefile']);
    const options = { isProjectPath: (candidate: string) => files.has(candidate) };
    const pathOf = (line: string) => parseAnswer(block(line), undefined, false, options).files[0]!.path;
    expect(['My Notes.md', '`My Notes.md`:', 'Makefile:', '## Makefile', 'Fix:', 'src/new.ts'].map(pathOf)).toEqual(['My Notes.md', 'My Notes.md', 'Makefile', 'Makefile', '', 'src/new.ts']);
  });

  it('gives a block after a prose line that is not a path to the previous block’s file, and reports a first block without one', () => {
    const answer = parseAnswer(`Change:\n${block('').slice(1)}\nsrc/a.ts\n${block('').slice(1)}Then this part:\n${block('').slice(1)}`);
    expect(answer.files.map((file) => [file.path, file.hunks.length])).toEqual([
      ['', 1],
      ['src/a.ts', 2],
    ]);
    expect(answer.problems).toEqual(['A search/replace block without a file path before it cannot be applied; it is shown as unmatched.']);
  });

  it('reads a stray ">" after SEARCH and REPLACE as the marker, without a problem', () => {
    const answer = parseAnswer(variants.STRAY_ANGLE);
    expect(answer.files[0]!.hunks[0]).toMatchObject({ complete: true, lines: [{ kind: 'remove', text: 'old' }, { kind: 'add', text: 'new' }] });
    expect(answer.problems).toEqual([]);
  });

  it('reads an empty SEARCH as a hunk of added lines only, and an empty block as an empty hunk', () => {
    const answer = parseAnswer(variants.EMPTY_SEARCH);
    expect(answer.files[0]).toMatchObject({ path: 'config/new.json', operation: 'update', format: 'search-replace' });
    expect(answer.files[0]!.hunks[0]!.lines).toEqual(['{', '  "enabled": true', '}'].map((text) => ({ kind: 'add', text })));
    expect(answer.problems).toEqual([]);
    const empty = parseAnswer('a.ts\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n');
    expect(empty.files[0]!.hunks[0]).toMatchObject({ lines: [], complete: true });
    expect(empty.problems).toEqual(['An empty hunk (no lines) has nothing to apply.']);
  });
});

describe('EditStreamParser: fences around search/replace blocks', () => {
  it('consumes the fences and the path line of a block in both layouts, and a fence holding two blocks', () => {
    const answer = parseAnswer(variants.FENCED_BLOCKS);
    expect(answer.files.map((file) => [file.path, file.hunks.length])).toEqual([
      ['src/app.py', 1],
      ['src/util.py', 2],
    ]);
    expect(answer.prose).toEqual(['Two changes.', '', '', '', "That's all."]);
    expect(answer.problems).toEqual([]);
  });

  it('consumes the fence a patch envelope is written in, and leaves a path line before it as prose', () => {
    const answer = parseAnswer(variants.FENCED_PATCH);
    expect(answer.prose).toEqual(['The patch:', '', '', 'Done.']);
    expect(answer.files[0]!.hunks[0]!.lines).toHaveLength(2);
    const named = parseAnswer('a.ts\n```\n\n*** Begin Patch\n*** Update File: a.ts\n-x\n*** End Patch\n\n```\n');
    expect(named.prose).toEqual(['a.ts']);
  });

  it('ends a fenced patch at its closing fence when End Patch is missing, and says so', () => {
    for (const section of ['*** Update File: a.ts\n-x\n+y\n', '*** Add File: a.ts\n+y\n', '*** Delete File: a.ts\n']) {
      const answer = parseAnswer(`\`\`\`diff\n*** Begin Patch\n${section}\`\`\`\nAfter.\n`);
      expect(answer.files[0]!.hunks.every((hunk) => hunk.complete && hunk.lines.every((line) => line.text === 'x' || line.text === 'y'))).toBe(true);
      expect([answer.prose, answer.problems]).toEqual([['After.'], ['A code fence closed the patch before "*** End Patch"; the patch ends there.']]);
    }
    const unfenced = parseAnswer('*** Begin Patch\n*** Update File: a.ts\n-x\n```\n*** End Patch\n');
    expect(unfenced.files[0]!.hunks[0]!.lines.at(-1)).toEqual({ kind: 'context', text: '```' });
  });

  it('leaves fences and path-like lines that head no block as prose, in order and unchanged', () => {
    const answer = parseAnswer(variants.FENCES_IN_PROSE);
    expect(answer.prose).toEqual(variants.FENCES_IN_PROSE.split('\n').slice(0, -1));
    expect(answer.files).toEqual([]);
  });

  it('holds a path line and a fence only until the next line says whether a block follows', () => {
    const prose: string[] = [];
    const parser = new EditStreamParser((event) => event.type === 'prose' && prose.push(event.text));
    parser.push('src/a.ts\n```ts\n');
    expect(prose).toEqual([]);
    parser.push('const a = 1;\n');
    expect(prose).toEqual(['src/a.ts', '```ts', 'const a = 1;']);
  });

  it('shows the held lines as prose when the answer ends after them, truncated or not', () => {
    for (const truncated of [false, true]) {
      const answer = parseAnswer('See:\nsrc/a.ts\n```ts\n<<<<<<< SEA', undefined, truncated);
      expect(answer.prose).toEqual(['See:', 'src/a.ts', '```ts', ...(truncated ? [] : ['<<<<<<< SEA'])]);
    }
  });

  it('looks back past two blank lines at most: a path further up stays prose and names no block', () => {
    const near = parseAnswer(`src/a.ts\n\n\n${block('').slice(1)}`);
    expect([near.files[0]!.path, near.prose]).toEqual(['src/a.ts', []]);
    const far = parseAnswer(`src/a.ts\n\n\n\n${block('').slice(1)}`);
    expect([far.files[0]!.path, far.prose]).toEqual(['', ['src/a.ts', '', '', '']]);
  });

  it('consumes the closing fence only when the block’s opening fence was consumed', () => {
    const fenced = parseAnswer('```\nsrc/a.ts\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n\n```\nAfter.\n');
    expect(fenced.prose).toEqual(['After.']);
    const bare = parseAnswer(`${block('src/a.ts')}\`\`\`\nAfter.\n`);
    expect(bare.prose).toEqual(['```', 'After.']);
  });

  it('keeps fences balanced: the next bare fence closes the one consumed, whatever comes between', () => {
    const twoFiles = parseAnswer(`\`\`\`\n${block('a.ts')}${block('b.ts')}\`\`\`\n`);
    expect([twoFiles.files.map((file) => file.path), twoFiles.prose]).toEqual([['a.ts', 'b.ts'], []]);
    const noteInside = parseAnswer(`\`\`\`python\n${block('a.py')}# the note\n\`\`\`\nAfter.\n`);
    expect(noteInside.prose).toEqual(['# the note', 'After.']);
    const unclosed = parseAnswer(`\`\`\`python\n${block('a.py')}\`\`\`python\n${block('b.py')}\`\`\`\n`);
    expect([unclosed.files.map((file) => file.path), unclosed.prose]).toEqual([['a.py', 'b.py'], []]);
    const languageInside = parseAnswer(`\`\`\`\n${block('a.py')}\`\`\`ts\n\`\`\`\n\`\`\`\n`);
    expect(languageInside.prose).toEqual(['```ts', '```']);
  });
});
