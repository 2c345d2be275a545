import { describe, expect, it } from 'vitest';
import { isInsideRoot, toPosixRelative } from './root-paths';

describe('isInsideRoot', () => {
  it('is true for the root itself', () => {
    expect(isInsideRoot('/work/project', '/work/project')).toBe(true);
  });

  it('is true for a path below the root', () => {
    expect(isInsideRoot('/work/project', '/work/project/src/app.ts')).toBe(true);
  });

  it('is false for the parent of the root', () => {
    expect(isInsideRoot('/work/project', '/work')).toBe(false);
  });

  it('is false for a sibling folder that shares the name prefix', () => {
    expect(isInsideRoot('/work/project', '/work/project-other/x')).toBe(false);
  });

  it('is false for an unrelated absolute path', () => {
    expect(isInsideRoot('/work/project', '/etc/passwd')).toBe(false);
  });

  it('is true for an entry whose name starts with two dots', () => {
    expect(isInsideRoot('/work/project', '/work/project/..notes')).toBe(true);
  });
});

describe('toPosixRelative', () => {
  it('turns an absolute path below the root into a POSIX relative path', () => {
    expect(toPosixRelative('/work/project', '/work/project/src/app.ts')).toBe('src/app.ts');
  });
});
