import { describe, expect, it } from 'vitest';
import { baseName, isSameOrBelow, normalizeRelativePath, parentPath } from './paths';

describe('normalizeRelativePath', () => {
  it('keeps a plain relative path as it is', () => {
    expect(normalizeRelativePath('src/app.ts')).toBe('src/app.ts');
    expect(normalizeRelativePath('README.md')).toBe('README.md');
  });

  it('drops repeated slashes and . segments', () => {
    expect(normalizeRelativePath('a//b/./c')).toBe('a/b/c');
    expect(normalizeRelativePath('./a/')).toBe('a');
  });

  it('refuses the empty path', () => {
    expect(normalizeRelativePath('')).toBeNull();
  });

  it('refuses paths that name the root itself', () => {
    expect(normalizeRelativePath('.')).toBeNull();
    expect(normalizeRelativePath('./')).toBeNull();
    expect(normalizeRelativePath('//')).toBeNull();
  });

  it('refuses a path made of a .. segment', () => {
    expect(normalizeRelativePath('..')).toBeNull();
    expect(normalizeRelativePath('../x')).toBeNull();
  });

  it('refuses a path with a .. segment in the middle even if it would stay inside', () => {
    expect(normalizeRelativePath('a/../b')).toBeNull();
    expect(normalizeRelativePath('a/b/..')).toBeNull();
  });

  it('refuses an absolute POSIX path', () => {
    expect(normalizeRelativePath('/abs')).toBeNull();
    expect(normalizeRelativePath('/')).toBeNull();
  });

  it('refuses Windows drive paths, absolute or drive-relative', () => {
    expect(normalizeRelativePath('C:\\x')).toBeNull();
    expect(normalizeRelativePath('C:x')).toBeNull();
    expect(normalizeRelativePath('c:/x')).toBeNull();
  });

  it('refuses a UNC path', () => {
    expect(normalizeRelativePath('\\\\server\\share')).toBeNull();
  });

  it('refuses any backslash', () => {
    expect(normalizeRelativePath('a\\b')).toBeNull();
    expect(normalizeRelativePath('..\\x')).toBeNull();
  });

  it('refuses a NUL byte anywhere', () => {
    expect(normalizeRelativePath('a\0b')).toBeNull();
    expect(normalizeRelativePath('a.txt\0')).toBeNull();
  });

  it('accepts names that merely start with dots', () => {
    expect(normalizeRelativePath('..foo')).toBe('..foo');
    expect(normalizeRelativePath('...')).toBe('...');
    expect(normalizeRelativePath('.gitignore')).toBe('.gitignore');
  });
});

describe('baseName', () => {
  it('returns the last segment of a nested path', () => {
    expect(baseName('a/b/c.ts')).toBe('c.ts');
  });

  it('returns a top-level name unchanged', () => {
    expect(baseName('README.md')).toBe('README.md');
  });

  it('returns the empty string for the root', () => {
    expect(baseName('')).toBe('');
  });
});

describe('parentPath', () => {
  it('returns the folder of a nested path', () => {
    expect(parentPath('a/b/c.ts')).toBe('a/b');
  });

  it("returns '' for a top-level entry", () => {
    expect(parentPath('a')).toBe('');
  });
});

describe('isSameOrBelow', () => {
  it('is true for the path itself', () => {
    expect(isSameOrBelow('a/b', 'a/b')).toBe(true);
  });

  it('is true for a descendant', () => {
    expect(isSameOrBelow('a/b/c', 'a')).toBe(true);
    expect(isSameOrBelow('a/b/c', 'a/b')).toBe(true);
  });

  it('is true for anything under the root', () => {
    expect(isSameOrBelow('a/b', '')).toBe(true);
    expect(isSameOrBelow('', '')).toBe(true);
  });

  it('is false for a sibling that shares a name prefix', () => {
    expect(isSameOrBelow('ab', 'a')).toBe(false);
    expect(isSameOrBelow('a-b/c', 'a')).toBe(false);
  });

  it('is false for an ancestor', () => {
    expect(isSameOrBelow('a', 'a/b')).toBe(false);
  });
});
