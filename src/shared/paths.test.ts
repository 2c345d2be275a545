import { describe, expect, it } from 'vitest';
import { baseName, isSameOrBelow, namesGitFolder, normalizeRelativePath, parentPath, touchesGitFolder } from './paths';

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

  it('refuses segments that Windows turns into .. by dropping trailing dots and spaces', () => {
    expect(normalizeRelativePath('.. /secret.txt')).toBeNull();
    expect(normalizeRelativePath('a/.. /x')).toBeNull();
    expect(normalizeRelativePath('.../x')).toBeNull();
    expect(normalizeRelativePath('a/. . /x')).toBeNull();
    expect(normalizeRelativePath('..notes/x')).toBe('..notes/x');
    expect(normalizeRelativePath('a./b')).toBe('a./b');
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
    expect(normalizeRelativePath('.foo.')).toBe('.foo.');
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

describe('namesGitFolder', () => {
  it('names .git in any case (NTFS, APFS and HFS+ fold case)', () => {
    expect(['.git', '.GIT', '.Git'].map(namesGitFolder)).toEqual([true, true, true]);
  });

  it('names .git with trailing dots and spaces, which Win32 strips', () => {
    expect(['.git.', '.git ', '.git. .', '.git...'].map(namesGitFolder)).toEqual([true, true, true, true]);
  });

  it('names .git with an NTFS stream suffix', () => {
    expect(['.git::$INDEX_ALLOCATION', '.git:$DATA', '.git. ::$INDEX_ALLOCATION', '.git:anything'].map(namesGitFolder)).toEqual([true, true, true, true]);
  });

  it('names the 8.3 short names of .git: GIT~1, and GIT~2… when other .g* names exist', () => {
    expect(['GIT~1', 'git~1', 'GIT~2', 'GIT~12', 'GIT~1.'].map(namesGitFolder)).toEqual([true, true, true, true, true]);
  });

  it('names .git with zero-width and other ignorable code points, which HFS+ leaves out', () => {
    expect(['.g\u200cit', '\u200b.git', '.git\ufeff', '.\u200dg\u200ei\u200ft', '.gi\u206at', '.git\u00ad'].map(namesGitFolder)).toEqual(Array(6).fill(true));
  });

  it('names .git spelled in fullwidth or with lookalike Cyrillic, Greek and Latin letters', () => {
    const spellings = ['．ｇｉｔ', '.\u0261it', '.g\u0456t', '.G\u0406T', '.g\u03b9t', '.gi\u0442', '.GI\u03a4', '.g\u0130t', '.g\u0131t', '.\u050dit', '.g\u03af\u0074', '.g\u03b9\u0301t'];
    expect(spellings.map(namesGitFolder)).toEqual(Array(spellings.length).fill(true));
  });

  it('leaves names that only resemble .git alone', () => {
    const names = ['.github', '.gitignore', '.gitmodules', 'git', 'digit', '.git~1', 'git~', 'git~1a', 'x.git', '.gi t', '..git', 'git.'];
    expect(names.map(namesGitFolder)).toEqual(Array(names.length).fill(false));
  });

  it('stays linear on a long segment', () => {
    expect(namesGitFolder(`.git${' '.repeat(1_000_000)}`)).toBe(true);
    expect(namesGitFolder(`.g${'\u200b'.repeat(1_000_000)}it${'.'.repeat(1_000_000)}x`)).toBe(false);
  });
});

describe('touchesGitFolder', () => {
  it('checks every segment of a path', () => {
    expect(touchesGitFolder('vendor/lib/.GIT./config')).toBe(true);
    expect(touchesGitFolder('GIT~1/hooks/pre-commit')).toBe(true);
    expect(touchesGitFolder('src/.github/workflows/ci.yml')).toBe(false);
  });
});
