import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../../../shared/project-types';
import type { TreeRow } from './tree-model';
import { pageRows, ROW_HEIGHT, treeKeyCommand } from './tree-navigation';

const row = (path: string, extra: Partial<TreeEntry> = {}, isExpanded = false): TreeRow => ({
  entry: { path, kind: 'file', ...extra },
  name: path.split('/').at(-1)!,
  depth: path.split('/').length,
  isExpanded,
});
const folder = (path: string, isExpanded = false, extra: Partial<TreeEntry> = {}): TreeRow => row(path, { kind: 'directory', ...extra }, isExpanded);

/** src (open) › src/a.ts, src/lib (closed); README.md */
const rows: TreeRow[] = [folder('src', true), row('src/a.ts'), folder('src/lib'), row('README.md')];
const page = (): number => 2;
const command = (key: string, activeIndex: number, list: readonly TreeRow[] = rows) => treeKeyCommand(key, list, activeIndex, page);
const moveTo = (path: string) => ({ type: 'move', path });

describe('treeKeyCommand', () => {
  it('moves with the arrows and stops at the ends', () => {
    expect(command('ArrowDown', 0)).toEqual(moveTo('src/a.ts'));
    expect(command('ArrowDown', 3)).toEqual(moveTo('README.md'));
    expect(command('ArrowUp', 1)).toEqual(moveTo('src'));
    expect(command('ArrowUp', 0)).toEqual(moveTo('src'));
  });

  it('with no active row, Down and Up both go to the first row', () => {
    expect(command('ArrowDown', -1)).toEqual(moveTo('src'));
    expect(command('ArrowUp', -1)).toEqual(moveTo('src'));
  });

  it('Home, End and paging', () => {
    expect(command('Home', 2)).toEqual(moveTo('src'));
    expect(command('End', 0)).toEqual(moveTo('README.md'));
    expect(command('PageDown', 0)).toEqual(moveTo('src/lib'));
    expect(command('PageDown', 3)).toEqual(moveTo('README.md'));
    expect(command('PageUp', 3)).toEqual(moveTo('src/a.ts'));
    expect(command('PageUp', 1)).toEqual(moveTo('src'));
  });

  it('reads the page size only when paging', () => {
    let reads = 0;
    treeKeyCommand('ArrowDown', rows, 0, () => ++reads);
    expect(reads).toBe(0);
    treeKeyCommand('PageDown', rows, 0, () => ++reads);
    expect(reads).toBe(1);
  });

  it('Right opens a closed folder, steps into an open one, and does nothing on a file', () => {
    expect(command('ArrowRight', 2)).toEqual({ type: 'expand', entry: rows[2]!.entry });
    expect(command('ArrowRight', 0)).toEqual(moveTo('src/a.ts'));
    expect(command('ArrowRight', 1)).toEqual({ type: 'none' });
    expect(command('ArrowRight', -1)).toEqual({ type: 'none' });
  });

  it('Left closes an open folder, else steps out to the parent; at the top it does nothing', () => {
    expect(command('ArrowLeft', 0)).toEqual({ type: 'collapse', entry: rows[0]!.entry });
    expect(command('ArrowLeft', 1)).toEqual(moveTo('src'));
    expect(command('ArrowLeft', 2)).toEqual(moveTo('src'));
    expect(command('ArrowLeft', 3)).toEqual({ type: 'none' });
  });

  it('Enter and Space do what a click does, on the active row', () => {
    expect(command('Enter', 1)).toEqual({ type: 'open', row: rows[1] });
    expect(command(' ', 2)).toEqual({ type: 'open', row: rows[2] });
    expect(command('Enter', -1)).toEqual({ type: 'none' });
  });

  it('an empty tree takes its keys and does nothing', () => {
    for (const key of ['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp']) expect(command(key, -1, [])).toEqual({ type: 'none' });
  });

  it('leaves other keys alone (typing, Tab)', () => {
    for (const key of ['a', 'Tab', 'Escape', 'Delete']) expect(command(key, 0)).toBeNull();
  });
});

describe('pageRows', () => {
  it('is a screenful less one row, at least one', () => {
    expect(pageRows(ROW_HEIGHT * 20)).toBe(19);
    expect(pageRows(ROW_HEIGHT * 20 + ROW_HEIGHT - 1)).toBe(19);
    expect(pageRows(ROW_HEIGHT)).toBe(1);
    expect(pageRows(0)).toBe(1);
  });

  it('assumes ten rows before the tree is laid out', () => {
    expect(pageRows(undefined)).toBe(9);
  });
});
