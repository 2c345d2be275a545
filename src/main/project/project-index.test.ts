import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../shared/project-types';
import { ProjectIndex } from './project-index';

const file = (path: string): TreeEntry => ({ path, kind: 'file' });
const folder = (path: string): TreeEntry => ({ path, kind: 'directory' });

describe('ProjectIndex', () => {
  it('finds files by name wherever they are, folders never, and keeps that up to date after it was first asked', () => {
    const index = new ProjectIndex();
    index.reset([folder('src'), file('src/app.ts'), folder('src/app.ts.d'), file('lib/app.ts')]);
    expect(index.filesNamed('app.ts')).toEqual(['src/app.ts', 'lib/app.ts']);
    expect(index.filesNamed('app.ts.d')).toEqual([]);
    index.set(file('test/app.ts'));
    index.delete('lib/app.ts');
    expect(index.filesNamed('app.ts')).toEqual(['src/app.ts', 'test/app.ts']);
    // Replaced by a folder of the same path: no longer a file of that name.
    index.set(folder('test/app.ts'));
    expect(index.filesNamed('app.ts')).toEqual(['src/app.ts']);
  });

  it('removes a folder with everything below it, and only that', () => {
    const index = new ProjectIndex();
    index.reset([folder('src'), folder('src/util'), file('src/util/strings.ts'), file('src/app.ts'), file('srcs.ts')]);
    index.delete('src/util');
    expect(index.paths().sort()).toEqual(['src', 'src/app.ts', 'srcs.ts']);
    expect(index.filesNamed('strings.ts')).toEqual([]);
    index.delete('src');
    expect(index.paths()).toEqual(['srcs.ts']);
    // A new folder of the old name starts empty.
    index.set(folder('src'));
    index.delete('src');
    expect(index.values()).toEqual([file('srcs.ts')]);
  });

  it('lists a folder’s children and counts every entry, and ticks its version on each change', () => {
    const index = new ProjectIndex();
    index.reset([folder('src'), file('src/a.ts'), folder('src/lib'), file('src/lib/b.ts'), file('README.md')]);
    expect(index.childrenOf('').map((entry) => entry.path).sort()).toEqual(['README.md', 'src']);
    expect(index.childrenOf('src').map((entry) => entry.path).sort()).toEqual(['src/a.ts', 'src/lib']);
    expect(index.childrenOf('src/a.ts')).toEqual([]);
    expect(index.size).toBe(5);
    const version = index.version;
    index.delete('src/lib');
    expect(index.size).toBe(3);
    expect(index.version).toBeGreaterThan(version);
  });

  it('tells what a fresh scan changed, leaving alone what the watcher reported since (and what lies below it)', () => {
    const index = new ProjectIndex();
    index.reset([folder('src'), file('src/a.ts'), file('src/gone.ts'), folder('lib'), file('lib/x.ts'), file('README.md')]);
    const fresh = [folder('src'), file('src/a.ts'), file('src/new.ts'), folder('lib'), { path: 'README.md', kind: 'symlink' as const }];
    expect(index.differencesFrom(fresh, new Set())).toEqual({ removed: ['src/gone.ts', 'lib/x.ts'], changed: [file('src/new.ts'), { path: 'README.md', kind: 'symlink' }] });
    // The watcher reported lib/ and README.md after the scan began: the scan's older word on them is dropped.
    expect(index.differencesFrom(fresh, new Set(['lib', 'README.md']))).toEqual({ removed: ['src/gone.ts'], changed: [file('src/new.ts')] });
  });
});
