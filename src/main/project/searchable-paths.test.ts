import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../shared/project-types';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { ProjectIndex } from './project-index';
import { SearchablePaths } from './searchable-paths';

/** What a search sees: each entry with its lower-cased path, mask and whether @ may name it. */
function seen(searchable: SearchablePaths): string[] {
  return searchable.entries.map((entry, index) => `${entry.path}|${entry.kind}|${searchable.lower[index]}|${searchable.masks[index]}|${searchable.mentionable[index]}`).sort();
}

describe('SearchablePaths', () => {
  it('brought up to date from the index’s journal, searches what one made afresh would, whatever changed', () => {
    const random = seededRandom(4242);
    const index = new ProjectIndex();
    const folders = ['', 'Src', 'src/Lib', 'docs'];
    const entries: TreeEntry[] = folders.filter((folder) => folder !== '').map((path) => ({ path, kind: 'directory' }));
    for (let file = 0; file < 40; file += 1) entries.push({ path: `${folders[file % 4] === '' ? '' : `${folders[file % 4]}/`}File${file}.ts`, kind: 'file' });
    index.reset(entries);
    const searchable = new SearchablePaths(index.all());
    expect(index.takeChanges()).toBeNull();
    for (let round = 0; round < 30; round += 1) {
      for (let change = 0; change < 1 + Math.floor(random() * 6); change += 1) {
        const folder = folders[Math.floor(random() * folders.length)]!;
        const path = `${folder === '' ? '' : `${folder}/`}New${Math.floor(random() * 20)}.TS`;
        const roll = random();
        if (roll < 0.4) index.set({ path, kind: 'file' });
        else if (roll < 0.55) index.set({ path, kind: 'file', ignored: true });
        else if (roll < 0.85) index.delete(path);
        // A whole folder goes, then comes back empty.
        else if (folder !== '') (index.delete(folder), index.set({ path: folder, kind: 'directory' }));
      }
      searchable.update(index.takeChanges()!, (path) => index.get(path));
      expect(seen(searchable)).toEqual(seen(new SearchablePaths(index.all())));
    }
  });

  it('made a slice at a time, holds what one made at once would, and stops when no longer wanted', async () => {
    const entries: TreeEntry[] = Array.from({ length: 103 }, (_, index) => ({ path: `Dir${index % 7}/File${index}.TS`, kind: index % 10 === 0 ? 'directory' : 'file' }));
    const sliced = await SearchablePaths.sliced(entries, () => false, 10);
    expect(seen(sliced!)).toEqual(seen(new SearchablePaths(entries)));
    let slices = 0;
    expect(await SearchablePaths.sliced(entries, () => ++slices > 3, 10)).toBeNull();
    expect(slices).toBe(4);
  });

  it('asks for everything to be made again after a reset', () => {
    const index = new ProjectIndex();
    index.takeChanges();
    index.set({ path: 'a.ts', kind: 'file' });
    expect([...index.takeChanges()!]).toEqual(['a.ts']);
    index.reset([]);
    expect(index.takeChanges()).toBeNull();
  });
});
