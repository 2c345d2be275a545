import { describe, expect, it } from 'vitest';
import type { SizeWarning } from '../../shared/project-types';
import { reasonAtOnceFor, SizeGuard } from './size-guard';

/** A guard and every warning it said, in order. */
function guard(reasonAtOnce: 'home' | 'root' | null, largeEntries = 1000) {
  const said: Array<SizeWarning | null> = [];
  const sizeGuard = new SizeGuard({ reasonAtOnce, largeEntries });
  sizeGuard.onDidChange((warning) => said.push(warning));
  return { sizeGuard, said };
}

/** Whether `promise` has settled once everything already queued has run. */
async function isSettled(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return settled;
}

describe('reasonAtOnceFor', () => {
  it('names the home folder and the file system root, and nothing else', () => {
    expect(reasonAtOnceFor('/home/ada', '/home/ada')).toBe('home');
    expect(reasonAtOnceFor('/', '/home/ada')).toBe('root');
    expect(reasonAtOnceFor('/home/ada/code/flint', '/home/ada')).toBeNull();
    expect(reasonAtOnceFor('/home', '/home/ada')).toBeNull();
  });
});

describe('SizeGuard', () => {
  it('warns about a home folder before the scan, keeps the count, and holds the project until Open anyway', async () => {
    const { sizeGuard, said } = guard('home');
    sizeGuard.begin();
    expect(said).toEqual([{ reason: 'home', entriesFound: 0, scanDone: false }]);
    sizeGuard.observe(40_000);
    expect(sizeGuard.current).toEqual({ reason: 'home', entriesFound: 40_000, scanDone: false });
    const live = sizeGuard.scanned(134_416);
    expect(said.at(-1)).toEqual({ reason: 'home', entriesFound: 134_416, scanDone: true });
    expect(await isSettled(live)).toBe(false);
    sizeGuard.proceed();
    expect(await isSettled(live)).toBe(true);
    expect(said.at(-1)).toBeNull();
    expect(sizeGuard.current).toBeNull();
    // A later scan (a .gitignore changed) asks nothing.
    sizeGuard.observe(200_000);
    expect(await isSettled(sizeGuard.scanned(200_000))).toBe(true);
    expect(said).toHaveLength(3);
  });

  it('warns about any folder once its scan passes the limit, and never about one below it', async () => {
    const large = guard(null, 1000);
    large.sizeGuard.begin();
    large.sizeGuard.observe(900);
    expect(large.said).toEqual([]);
    large.sizeGuard.observe(1200);
    expect(large.said).toEqual([{ reason: 'large', entriesFound: 1200, scanDone: false }]);
    const small = guard(null, 1000);
    small.sizeGuard.begin();
    small.sizeGuard.observe(999);
    expect(await isSettled(small.sizeGuard.scanned(999))).toBe(true);
    expect(small.said).toEqual([]);
  });

  it('lets the scan go on when Open anyway comes first, and lets go of a held project that closes', async () => {
    const early = guard('root');
    early.sizeGuard.begin();
    early.sizeGuard.proceed();
    expect(await isSettled(early.sizeGuard.scanned(5_000_000))).toBe(true);
    expect(early.said).toEqual([{ reason: 'root', entriesFound: 0, scanDone: false }, null]);
    const closed = guard('home');
    closed.sizeGuard.begin();
    const live = closed.sizeGuard.scanned(10);
    closed.sizeGuard.dispose();
    expect(await isSettled(live)).toBe(true);
  });
});
