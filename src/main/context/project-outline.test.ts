import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../shared/project-types';
import { projectOutline } from './project-outline';

const file = (path: string): TreeEntry => ({ path, kind: 'file' });
const folder = (path: string): TreeEntry => ({ path, kind: 'directory' });
const ignored = (entry: TreeEntry): TreeEntry => ({ ...entry, ignored: true });

function outlineLines(entries: readonly TreeEntry[], name = 'demo'): { project: string; folders: string; languages: string } {
  const [project, folders, languages, ...rest] = projectOutline(name, entries).split('\n');
  expect(rest).toEqual([]);
  return { project: project!, folders: folders!, languages: languages! };
}

describe('projectOutline', () => {
  it('names the project on the first line', () => {
    expect(outlineLines([], 'flint').project).toBe('Project: flint');
  });

  it('counts files per top-level folder, including files in nested folders', () => {
    const entries = [folder('src'), folder('src/deep'), folder('src/deep/deeper'), file('src/a.ts'), file('src/deep/b.ts'), file('src/deep/deeper/c.ts'), folder('test'), file('test/a.test.ts')];
    expect(outlineLines(entries).folders).toBe('Top-level folders: src/ (3 files), test/ (1 file); 0 files at the root.');
  });

  it('lists folders with the most files first, and folders with as many files by name', () => {
    const entries = [folder('zeta'), file('zeta/1.ts'), folder('beta'), file('beta/1.ts'), folder('alpha'), file('alpha/1.ts'), file('alpha/2.ts')];
    expect(outlineLines(entries).folders).toBe('Top-level folders: alpha/ (2 files), beta/ (1 file), zeta/ (1 file); 0 files at the root.');
  });

  it('lists an empty top-level folder with no files', () => {
    expect(outlineLines([folder('empty')]).folders).toBe('Top-level folders: empty/ (0 files); 0 files at the root.');
  });

  it('counts a folder it only sees through its files', () => {
    expect(outlineLines([file('lib/x.ts')]).folders).toBe('Top-level folders: lib/ (1 file); 0 files at the root.');
  });

  it('skips ignored folders and ignored files', () => {
    const entries = [
      ignored(folder('node_modules')),
      ignored(file('node_modules/pkg/index.js')),
      folder('src'),
      file('src/a.ts'),
      ignored(file('src/generated.ts')),
      ignored(file('debug.log')),
      ignored(file('dist.js')),
    ];
    const outline = outlineLines(entries);
    expect(outline.folders).toBe('Top-level folders: src/ (1 file); 0 files at the root.');
    expect(outline.languages).toBe('Languages: TypeScript 100%.');
  });

  it('counts files at the root separately from folders', () => {
    expect(outlineLines([file('README.md'), file('package.json'), file('main.go'), folder('src'), file('src/a.go')]).folders).toBe(
      'Top-level folders: src/ (1 file); 3 files at the root.',
    );
    expect(outlineLines([file('main.go')]).folders).toBe('Top-level folders: none; 1 file at the root.');
  });

  it('does not count symlinks as files', () => {
    const entries: TreeEntry[] = [folder('src'), { path: 'src/link.ts', kind: 'symlink' }, { path: 'root-link.ts', kind: 'symlink' }];
    const outline = outlineLines(entries);
    expect(outline.folders).toBe('Top-level folders: src/ (0 files); 0 files at the root.');
    expect(outline.languages).toBe('Languages: unknown.');
  });

  it('lists the three main code languages with their share of code files', () => {
    const entries = [
      ...['a', 'b', 'c', 'd', 'e'].map((name) => file(`src/${name}.ts`)),
      ...['a', 'b', 'c'].map((name) => file(`scripts/${name}.py`)),
      file('cmd/main.go'),
      file('cmd/util.go'),
      file('native/lib.rs'),
    ];
    // 11 code files: 5/11, 3/11, 2/11, rounded; Rust is fourth and left out.
    expect(outlineLines(entries).languages).toBe('Languages: TypeScript 45%, Python 27%, Go 18%.');
  });

  it('leaves data and documentation out of the languages and their shares', () => {
    const entries = [file('package.json'), file('tsconfig.json'), file('README.md'), file('docs/guide.md'), file('config.yaml'), file('src/app.ts'), file('src/app.py')];
    expect(outlineLines(entries).languages).toBe('Languages: TypeScript 50%, Python 50%.');
  });

  it('says the languages are unknown when there is no code', () => {
    expect(outlineLines([file('README.md'), file('data.json'), file('notes.txt')]).languages).toBe('Languages: unknown.');
  });

  it('recognizes files by name as well as by extension', () => {
    expect(outlineLines([file('Dockerfile'), file('Makefile')]).languages).toMatch(/^Languages: (Dockerfile 50%, Makefile 50%|Makefile 50%, Dockerfile 50%)\.$/);
  });

  it('shows at most 12 folders, those with the most files, and says how many more there are', () => {
    const entries: TreeEntry[] = [];
    for (let index = 1; index <= 15; index += 1) {
      const name = `f${String(index).padStart(2, '0')}`;
      entries.push(folder(name));
      for (let count = 0; count < index; count += 1) entries.push(file(`${name}/${count}.txt`));
    }
    const folders = outlineLines(entries).folders;
    const shown = folders.replace(/^Top-level folders: /, '').replace(/; 0 files at the root\.$/, '').split(', ');
    expect(shown).toHaveLength(13);
    expect(shown[0]).toBe('f15/ (15 files)');
    expect(shown[11]).toBe('f04/ (4 files)');
    expect(shown[12]).toBe('3 more');
    expect(folders).not.toContain('f03/');
  });

  it('shows exactly 12 folders without a "more" note', () => {
    const entries = Array.from({ length: 12 }, (_, index) => folder(`d${String(index).padStart(2, '0')}`));
    expect(outlineLines(entries).folders).not.toContain('more');
  });
});
