import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../../../shared/project-types';
import { parentPath } from '../../../../shared/paths';
import { TreeModel, type TreeRow } from './tree-model';

const file = (path: string, extra: Partial<TreeEntry> = {}): TreeEntry => ({ path, kind: 'file', ...extra });
const folder = (path: string, extra: Partial<TreeEntry> = {}): TreeEntry => ({ path, kind: 'directory', ...extra });

const names = (rows: TreeRow[]): string[] => rows.map((row) => row.entry.path);

/** A model as main would fill it: the top level, then every visible folder listed (as if each was opened once). */
function modelOf(entries: readonly TreeEntry[]): TreeModel {
  const model = new TreeModel();
  const childrenOf = (folder: string) => entries.filter((entry) => parentPath(entry.path) === folder);
  model.load(childrenOf(''));
  for (const entry of entries) if (entry.kind === 'directory' && entry.unlisted === undefined) model.addListed(entry.path, childrenOf(entry.path));
  return model;
}

/** A small project: two folders, files whose names need natural sorting, a hidden folder. */
function sampleModel(): TreeModel {
  return modelOf([
    file('file10.txt'),
    file('README.md'),
    folder('src'),
    file('src/b.ts'),
    file('src/a.ts'),
    folder('src/lib'),
    file('src/lib/util.ts'),
    file('file2.txt'),
    folder('docs'),
    file('docs/guide.md'),
    folder('dist', { ignored: true, unlisted: 'ignored' }),
    file('debug.log', { ignored: true }),
  ]);
}

describe('TreeModel', () => {
  describe('load and visibleRows', () => {
    it('shows top-level entries only when nothing is expanded, folders first', () => {
      const rows = sampleModel().visibleRows(new Set(), false);
      expect(names(rows)).toEqual(['docs', 'src', 'file2.txt', 'file10.txt', 'README.md']);
      expect(rows.every((row) => row.depth === 1 && !row.isExpanded)).toBe(true);
    });

    it("sorts names naturally, so 'file2' comes before 'file10'", () => {
      const model = new TreeModel();
      model.load([file('file10'), file('file1'), file('file2'), file('File3')]);
      expect(names(model.visibleRows(new Set(), false))).toEqual(['file1', 'file2', 'File3', 'file10']);
    });

    it('shows the children of expanded folders below them, one level deeper', () => {
      const rows = sampleModel().visibleRows(new Set(['src', 'src/lib']), false);

      expect(rows.map((row) => [row.entry.path, row.depth, row.isExpanded])).toEqual([
        ['docs', 1, false],
        ['src', 1, true],
        ['src/lib', 2, true],
        ['src/lib/util.ts', 3, false],
        ['src/a.ts', 2, false],
        ['src/b.ts', 2, false],
        ['file2.txt', 1, false],
        ['file10.txt', 1, false],
        ['README.md', 1, false],
      ]);
    });

    it("gives each row its base name, not its path", () => {
      const rows = sampleModel().visibleRows(new Set(['src', 'src/lib']), false);
      expect(rows.find((row) => row.entry.path === 'src/lib/util.ts')?.name).toBe('util.ts');
    });

    it('hides the children of a collapsed folder even when a descendant is expanded', () => {
      const rows = sampleModel().visibleRows(new Set(['src/lib']), false);
      expect(names(rows)).not.toContain('src/lib');
      expect(names(rows)).not.toContain('src/lib/util.ts');
    });

    it('ignores an expanded path that is a file', () => {
      const rows = sampleModel().visibleRows(new Set(['README.md']), false);
      expect(rows.find((row) => row.entry.path === 'README.md')?.isExpanded).toBe(false);
    });

    it('excludes ignored entries unless showIgnored is set', () => {
      const model = sampleModel();
      expect(names(model.visibleRows(new Set(), false))).not.toContain('dist');
      expect(names(model.visibleRows(new Set(), false))).not.toContain('debug.log');

      const shown = names(model.visibleRows(new Set(), true));
      expect(shown).toEqual(['dist', 'docs', 'src', 'debug.log', 'file2.txt', 'file10.txt', 'README.md']);
    });

    it('replaces everything on a second load', () => {
      const model = sampleModel();
      model.load([file('only.txt')]);
      expect(model.size).toBe(1);
      expect(model.get('src')).toBeUndefined();
      expect(names(model.visibleRows(new Set(['src']), true))).toEqual(['only.txt']);
    });

    it('ticks version on every load and apply', () => {
      const model = new TreeModel();
      const start = model.version;
      model.load([]);
      model.apply([]);
      expect(model.version).toBe(start + 2);
    });
  });

  describe('apply', () => {
    it('adds a new entry where it sorts', () => {
      const model = sampleModel();
      model.apply([{ type: 'added', entry: file('src/aa.ts') }]);
      expect(names(model.visibleRows(new Set(['src']), false))).toEqual([
        'docs',
        'src',
        'src/lib',
        'src/a.ts',
        'src/aa.ts',
        'src/b.ts',
        'file2.txt',
        'file10.txt',
        'README.md',
      ]);
    });

    it('removes a file', () => {
      const model = sampleModel();
      model.apply([{ type: 'removed', path: 'README.md' }]);
      expect(model.get('README.md')).toBeUndefined();
      expect(names(model.visibleRows(new Set(), false))).not.toContain('README.md');
    });

    it('removes a folder together with everything below it', () => {
      const model = sampleModel();
      const before = model.size;

      model.apply([{ type: 'removed', path: 'src' }]);

      expect(model.size).toBe(before - 5);
      for (const path of ['src', 'src/a.ts', 'src/b.ts', 'src/lib', 'src/lib/util.ts']) expect(model.get(path)).toBeUndefined();
      expect(names(model.visibleRows(new Set(['src', 'src/lib']), false))).toEqual([
        'docs',
        'file2.txt',
        'file10.txt',
        'README.md',
      ]);
    });

    it('does not touch a sibling whose name starts with the removed folder name', () => {
      const model = modelOf([folder('src'), file('src/a.ts'), folder('src-old'), file('src-old/a.ts')]);
      model.apply([{ type: 'removed', path: 'src' }]);
      expect(model.get('src-old/a.ts')).toBeDefined();
    });

    it('ignores the removal of an unknown path', () => {
      const model = sampleModel();
      const before = model.size;
      model.apply([{ type: 'removed', path: 'nope/never' }]);
      expect(model.size).toBe(before);
    });

    it('replaces an entry added again under the same path', () => {
      const model = sampleModel();
      model.apply([
        { type: 'removed', path: 'docs' },
        { type: 'added', entry: file('docs') },
      ]);
      model.apply([{ type: 'added', entry: file('README.md', { ignored: true }) }]);

      expect(model.get('docs')).toEqual(file('docs'));
      expect(model.get('docs/guide.md')).toBeUndefined();
      expect(model.get('README.md')).toEqual(file('README.md', { ignored: true }));
      const rows = names(model.visibleRows(new Set(), false));
      expect(rows.filter((path) => path === 'docs')).toHaveLength(1);
      expect(rows).not.toContain('README.md');
    });

    it('re-adding a folder that was removed does not bring back its old children', () => {
      const model = sampleModel();
      model.apply([
        { type: 'removed', path: 'src' },
        { type: 'added', entry: folder('src') },
      ]);
      expect(model.get('src/a.ts')).toBeUndefined();
      expect(names(model.visibleRows(new Set(['src']), false))).toContain('src');
      expect(names(model.visibleRows(new Set(['src']), false))).not.toContain('src/a.ts');
    });

    it('applies changes in order within one batch', () => {
      const model = new TreeModel();
      model.load([]);
      model.apply([
        { type: 'added', entry: file('tmp.txt') },
        { type: 'removed', path: 'tmp.txt' },
        { type: 'added', entry: file('kept.txt') },
      ]);
      expect(names(model.visibleRows(new Set(), false))).toEqual(['kept.txt']);
    });

    it('treats modified as no change to the tree, but still ticks the version', () => {
      const model = sampleModel();
      const before = model.visibleRows(new Set(['src']), false);
      const version = model.version;

      model.apply([{ type: 'modified', path: 'src/a.ts' }]);

      expect(model.visibleRows(new Set(['src']), false)).toEqual(before);
      expect(model.version).toBe(version + 1);
    });
  });

  describe('folders listed as they open', () => {
    it('holds only the top level until a folder is listed, and then its children', () => {
      const model = new TreeModel();
      model.load([folder('src'), file('README.md')]);
      expect(model.needsListing(model.get('src')!)).toBe(true);
      expect(names(model.visibleRows(new Set(['src']), false))).toEqual(['src', 'README.md']);

      model.addListed('src', [file('src/a.ts'), folder('src/lib')]);

      expect(model.needsListing(model.get('src')!)).toBe(false);
      expect(model.needsListing(model.get('src/lib')!)).toBe(true);
      expect(names(model.visibleRows(new Set(['src']), false))).toEqual(['src', 'src/lib', 'src/a.ts', 'README.md']);
    });

    it('drops a change in a folder it has not listed (the listing will be newer), and keeps one in a listed folder', () => {
      const model = new TreeModel();
      model.load([folder('src'), folder('docs')]);
      model.addListed('docs', []);
      model.apply([
        { type: 'added', entry: file('src/new.ts') },
        { type: 'added', entry: file('docs/new.md') },
        { type: 'added', entry: file('top.txt') },
      ]);
      expect(model.get('src/new.ts')).toBeUndefined();
      expect(model.get('docs/new.md')).toBeDefined();
      expect(model.get('top.txt')).toBeDefined();
    });

    it('takes a listing as the folder now: children gone since are dropped, a listed subfolder keeps its own', () => {
      const model = modelOf([folder('src'), file('src/old.ts'), folder('src/lib'), file('src/lib/util.ts')]);
      model.addListed('src', [folder('src/lib'), file('src/new.ts')]);
      expect(model.get('src/old.ts')).toBeUndefined();
      expect(model.get('src/new.ts')).toBeDefined();
      expect(model.get('src/lib/util.ts')).toBeDefined();
      // A folder that became a file loses what was below it.
      model.addListed('src', [file('src/lib')]);
      expect(model.get('src/lib/util.ts')).toBeUndefined();
    });

    it('ignores a listing of a folder gone since, or one asked for before the tree was loaded again', () => {
      const model = modelOf([folder('src'), folder('docs')]);
      const before = model.generation;
      model.apply([{ type: 'removed', path: 'src' }]);
      model.addListed('src', [file('src/a.ts')]);
      expect(model.get('src/a.ts')).toBeUndefined();

      model.load([folder('docs')]);
      model.addListed('docs', [file('docs/stale.md')], before);
      expect(model.get('docs/stale.md')).toBeUndefined();
      expect(model.needsListing(model.get('docs')!)).toBe(true);
    });

    it('forgets every listing on a new load: open folders are listed again', () => {
      const model = modelOf([folder('src'), file('src/a.ts')]);
      model.load([folder('src')]);
      expect(model.get('src/a.ts')).toBeUndefined();
      expect(model.needsListing(model.get('src')!)).toBe(true);
    });

    it('needs listing for an ignored, unlisted folder until its children are added', () => {
      const model = sampleModel();
      const dist = model.get('dist')!;
      expect(model.needsListing(dist)).toBe(true);

      model.addListed('dist', [file('dist/bundle.js', { ignored: true }), folder('dist/assets', { ignored: true, unlisted: 'ignored' })]);

      expect(model.needsListing(dist)).toBe(false);
      expect(model.needsListing(model.get('dist/assets')!)).toBe(true);
      expect(names(model.visibleRows(new Set(['dist']), true))).toEqual([
        'dist',
        'dist/assets',
        'dist/bundle.js',
        'docs',
        'src',
        'debug.log',
        'file2.txt',
        'file10.txt',
        'README.md',
      ]);
    });

    it('never needs listing for a folder listed, a permission-denied folder or a file', () => {
      const model = sampleModel();
      expect(model.needsListing(model.get('src')!)).toBe(false);
      expect(model.needsListing(folder('locked', { unlisted: 'permission-denied' }))).toBe(false);
      expect(model.needsListing(model.get('README.md')!)).toBe(false);
    });

    it('keeps entries a listing repeats, and adds the new ones', () => {
      const model = sampleModel();
      model.addListed('dist', [file('dist/a.js', { ignored: true })]);
      model.addListed('dist', [file('dist/a.js', { ignored: true }), file('dist/b.js', { ignored: true })]);
      expect(names(model.visibleRows(new Set(['dist']), true)).filter((path) => path.startsWith('dist/'))).toEqual([
        'dist/a.js',
        'dist/b.js',
      ]);
    });

    it('needs listing again after the folder is removed and added back', () => {
      const model = sampleModel();
      model.addListed('dist', [file('dist/a.js', { ignored: true })]);

      model.apply([
        { type: 'removed', path: 'dist' },
        { type: 'added', entry: folder('dist', { ignored: true, unlisted: 'ignored' }) },
      ]);

      expect(model.needsListing(model.get('dist')!)).toBe(true);
      expect(model.get('dist/a.js')).toBeUndefined();
    });
  });

  it('loads 50,000 entries and lists them all when every folder is expanded', () => {
    const entries: TreeEntry[] = [];
    const folders = new Set<string>();
    for (let top = 0; top < 50; top += 1) {
      const topPath = `pkg${top}`;
      entries.push(folder(topPath));
      folders.add(topPath);
      for (let sub = 0; sub < 10; sub += 1) {
        const subPath = `${topPath}/mod${sub}`;
        entries.push(folder(subPath));
        folders.add(subPath);
        for (let index = 0; index < 100; index += 1) entries.push(file(`${subPath}/file${index}.ts`));
      }
    }
    const fileCount = entries.length - folders.size;
    expect(fileCount).toBe(50_000);

    const model = modelOf(entries);
    const rows = model.visibleRows(folders, false);

    expect(model.size).toBe(50_000 + folders.size);
    expect(rows).toHaveLength(50_000 + folders.size);
    expect(rows[0]).toMatchObject({ name: 'pkg0', depth: 1, isExpanded: true });
    expect(rows[1]).toMatchObject({ name: 'mod0', depth: 2, isExpanded: true });
    expect(rows[2]).toMatchObject({ name: 'file0.ts', depth: 3 });
    expect(rows[3]?.name).toBe('file1.ts');
    expect(rows[4]?.name).toBe('file2.ts');
    expect(rows.at(-1)?.entry.path).toBe('pkg49/mod9/file99.ts');
  });
});
