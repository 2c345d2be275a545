import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryLogger } from '../logger';
import { boundRecords, ConversationStore, recordCost, type ConversationStoreOptions } from './conversation-store';

/** A stand-in for the conversation model: prose that can be cut, and undecided work. */
interface Entry {
  id: string;
  prose: string;
  hasPendingWork: boolean;
}

const EntrySchema = z.object({ id: z.string().min(1), prose: z.string(), hasPendingWork: z.boolean() });
const entry = (id: string, prose = `prose of ${id}`, hasPendingWork = false): Entry => ({ id, prose, hasPendingWork });
const ROOT = '/home/someone/project';

describe('ConversationStore', () => {
  let folder: string;
  let logger: ReturnType<typeof createMemoryLogger>;

  beforeEach(async () => {
    folder = join(await realpath(await mkdtemp(join(tmpdir(), 'flint-conversations-'))), 'conversations');
    logger = createMemoryLogger();
  });

  afterEach(async () => {
    await rm(join(folder, '..'), { recursive: true, force: true });
  });

  const options = (overrides: Partial<ConversationStoreOptions<Entry>> = {}): ConversationStoreOptions<Entry> => ({
    folder,
    projectRoot: ROOT,
    parse: (value) => {
      const parsed = EntrySchema.safeParse(value);
      return parsed.success ? parsed.data : null;
    },
    isPrecious: (record) => record.hasPendingWork,
    slim: (record) => ({ ...record, prose: record.prose.slice(0, 8) }),
    logger,
    ...overrides,
  });
  const file = (): string => ConversationStore.fileFor(folder, ROOT);
  const writeHistory = async (content: unknown): Promise<string> => {
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    await mkdir(folder, { recursive: true });
    await writeFile(file(), text);
    return text;
  };
  const envelope = (records: unknown[], overrides: Record<string, unknown> = {}) => ({
    format: 'flint-conversations',
    version: 1,
    projectRoot: ROOT,
    records,
    ...overrides,
  });
  const asideFiles = async (): Promise<string[]> => (await readdir(folder)).filter((name) => name.includes('.json.'));

  it('round-trips records through the file, readable by the user only', async () => {
    const records = [entry('a'), entry('b', 'üñíçødé prose', true)];
    const { store, notice } = await ConversationStore.open(options());
    expect(notice).toBeNull();

    store.save(records);
    await store.flush();

    const reopened = await ConversationStore.open(options());
    expect(reopened.records).toEqual(records);
    expect(reopened.notice).toBeNull();
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(await readdir(folder)).toEqual([file().slice(folder.length + 1)]);
  });

  it('creates nothing when opened with no history and nothing saved', async () => {
    const { store, records, notice } = await ConversationStore.open(options());
    await store.flush();

    expect(records).toEqual([]);
    expect(notice).toBeNull();
    await expect(stat(folder)).rejects.toThrow();
  });

  it('names one file per project from a hash of its root', () => {
    expect(ConversationStore.fileFor(folder, ROOT)).toMatch(/[/\\][0-9a-f]{16}\.json$/);
    expect(ConversationStore.fileFor(folder, ROOT)).not.toBe(ConversationStore.fileFor(folder, `${ROOT}-2`));
  });

  it('coalesces a burst of saves into one write of the last list', async () => {
    const written: string[] = [];
    const { store } = await ConversationStore.open(options({ saveDelayMs: 5, write: async (_file, data) => void written.push(data) }));

    store.save([entry('a')]);
    store.save([entry('a'), entry('b')]);
    store.save([entry('a'), entry('b'), entry('c')]);
    await vi.waitFor(() => expect(written).toHaveLength(1));
    await store.flush();

    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!).records.map((record: Entry) => record.id)).toEqual(['a', 'b', 'c']);
  });

  it('writes after the debounce without a flush', async () => {
    const { store } = await ConversationStore.open(options({ saveDelayMs: 5 }));

    store.save([entry('a')]);

    await vi.waitFor(async () => expect(JSON.parse(await readFile(file(), 'utf8')).records).toEqual([entry('a')]));
    store.dispose();
    await store.flush();
  });

  it('never starts a write while another runs, and never writes an older list after a newer one', async () => {
    let releaseFirst!: () => void;
    const firstBlocked = new Promise<void>((resolve) => (releaseFirst = resolve));
    const started: string[] = [];
    let running = 0;
    let mostRunning = 0;
    const write = async (_file: string, data: string): Promise<void> => {
      started.push(JSON.parse(data).records.map((record: Entry) => record.id).join(','));
      mostRunning = Math.max(mostRunning, (running += 1));
      if (started.length === 1) await firstBlocked;
      running -= 1;
    };
    const { store } = await ConversationStore.open(options({ write }));

    store.save([entry('a')]);
    const first = store.flush();
    await vi.waitFor(() => expect(started).toEqual(['a']));
    store.save([entry('a'), entry('b')]);
    const second = store.flush();
    store.save([entry('a'), entry('b'), entry('c')]);
    const third = store.flush();
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a']);
    releaseFirst();
    await Promise.all([first, second, third]);

    // The second flush found the newest list pending; the third had nothing left to write.
    expect(started).toEqual(['a', 'a,b,c']);
    expect(mostRunning).toBe(1);
  });

  it('leaves the last list on disk after many quick saves and flushes', async () => {
    const { store } = await ConversationStore.open(options({ saveDelayMs: 1 }));
    const records: Entry[] = [];
    for (let index = 0; index < 40; index += 1) {
      records.push(entry(`e${index}`));
      store.save([...records]);
      if (index % 7 === 0) void store.flush();
    }
    await store.flush();

    expect(JSON.parse(await readFile(file(), 'utf8')).records).toEqual(records);
  });

  it('sets a truncated file aside with a notice, starts empty and keeps saving', async () => {
    const original = await writeHistory(envelope([entry('a'), entry('b')]));
    await truncate(file(), original.length - 10);

    const { store, records, notice } = await ConversationStore.open(options());

    expect(records).toEqual([]);
    const [aside] = await asideFiles();
    expect(aside).toMatch(/\.json\.corrupt-\d+$/);
    expect(notice).toContain(join(folder, aside!));
    expect(await readFile(join(folder, aside!), 'utf8')).toBe(original.slice(0, -10));
    store.save([entry('c')]);
    await store.flush();
    expect((await ConversationStore.open(options())).records).toEqual([entry('c')]);
  });

  it('sets aside a file from a newer Flint and never overwrites it', async () => {
    const original = await writeHistory({ format: 'flint-conversations', version: 2, projectRoot: ROOT, turns: [] });

    const { store, records, notice } = await ConversationStore.open(options());
    store.save([entry('a')]);
    await store.flush();

    expect(records).toEqual([]);
    const [aside] = await asideFiles();
    expect(aside).toMatch(/\.json\.newer-v2-\d+$/);
    expect(notice).toMatch(/newer Flint/);
    expect(notice).toContain(join(folder, aside!));
    expect(await readFile(join(folder, aside!), 'utf8')).toBe(original);
  });

  it('sets aside a file over the read limit (four times maxBytes by default)', async () => {
    await writeHistory(envelope([entry('a', 'x'.repeat(5_000))]));

    const { records, notice } = await ConversationStore.open(options({ maxBytes: 1_000 }));

    expect(records).toEqual([]);
    expect(await asideFiles()).toEqual([expect.stringMatching(/\.json\.too-large-\d+$/)]);
    expect(notice).toMatch(/too large/);
  });

  it('sets aside a file that names another project', async () => {
    await writeHistory(envelope([entry('a')], { projectRoot: '/elsewhere' }));

    const { records, notice } = await ConversationStore.open(options());

    expect(records).toEqual([]);
    expect(await asideFiles()).toEqual([expect.stringMatching(/\.json\.other-project-\d+$/)]);
    expect(notice).toMatch(/another project/);
  });

  it.each([
    ['JSON that is not an object', '[1, 2, 3]'],
    ['another format', JSON.stringify({ format: 'something-else', version: 1, projectRoot: ROOT, records: [] })],
    ['records that are not a list', JSON.stringify({ format: 'flint-conversations', version: 1, projectRoot: ROOT, records: {} })],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('latin1')],
  ])('sets aside %s as corrupt', async (_name, content) => {
    await mkdir(folder, { recursive: true });
    await writeFile(file(), Buffer.from(content, 'latin1'));

    const { records, notice } = await ConversationStore.open(options());

    expect(records).toEqual([]);
    expect(await asideFiles()).toEqual([expect.stringMatching(/\.json\.corrupt-\d+$/)]);
    expect(notice).toMatch(/could not be read/);
  });

  it('sets aside a folder standing where the file should be', async () => {
    await mkdir(file(), { recursive: true });

    const { store, notice } = await ConversationStore.open(options());
    store.save([entry('a')]);
    await store.flush();

    expect(notice).toMatch(/set aside/);
    expect(JSON.parse(await readFile(file(), 'utf8')).records).toEqual([entry('a')]);
  });

  it('leaves invalid and repeated entries out one by one, counts them in the notice, and keeps a copy of the file as it was', async () => {
    const parse = (value: unknown): Entry | null => {
      if (value === 'explode') throw new Error('parser bug');
      const parsed = EntrySchema.safeParse(value);
      return parsed.success ? parsed.data : null;
    };
    await writeHistory(envelope([entry('a'), { id: 'b' }, 42, 'explode', entry('c'), entry('a', 'again')]));

    const { records, notice } = await ConversationStore.open(options({ parse }));

    expect(records).toEqual([entry('a'), entry('c')]);
    expect(notice).toMatch(/^4 saved conversation entries .* left out\. The file as it was is kept as .*\.unread-\d+\.$/);
    expect((await asideFiles()).map((name) => name.replace(/\d+$/, ''))).toEqual([expect.stringMatching(/\.json\.unread-$/)]);
  });

  it('bounds what it writes: newest and precious records kept, file within maxBytes', async () => {
    const { store } = await ConversationStore.open(options({ maxCount: 3, maxBytes: 400 }));
    const records = [entry('old-work', 'w', true), ...Array.from({ length: 6 }, (_, index) => entry(`e${index}`, 'p'.repeat(40)))];

    store.save(records);
    await store.flush();

    const text = await readFile(file(), 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(400);
    expect(JSON.parse(text).records.map((record: Entry) => record.id)).toEqual(['old-work', 'e4', 'e5']);
  });

  it('warns when only undecided work is left and some of it must go', async () => {
    const { store } = await ConversationStore.open(options({ maxCount: 2 }));

    store.save([entry('a', 'x', true), entry('b', 'x', true), entry('c', 'x', true)]);
    await store.flush();

    expect(JSON.parse(await readFile(file(), 'utf8')).records.map((record: Entry) => record.id)).toEqual(['b', 'c']);
    expect(logger.lines).toEqual([expect.stringMatching(/^warning: .*undecided work.*dropped the 1 oldest/)]);
  });

  it('logs a failed write instead of throwing, and the next save succeeds once fixed', async () => {
    // A file where the folder should be: mkdir fails, as a read-only folder would (tests may run as root).
    await writeFile(folder, 'in the way');
    const { store } = await ConversationStore.open(options());

    store.save([entry('a')]);
    await expect(store.flush()).resolves.toBeUndefined();
    expect(logger.lines).toEqual([expect.stringMatching(/^error: Could not save conversation history/)]);

    await rm(folder);
    store.save([entry('a'), entry('b')]);
    await store.flush();
    expect(JSON.parse(await readFile(file(), 'utf8')).records).toEqual([entry('a'), entry('b')]);
  });

  it('writes what is pending on dispose and ignores saves after it', async () => {
    const { store } = await ConversationStore.open(options());

    store.save([entry('a')]);
    store.dispose();
    store.save([entry('a'), entry('late')]);
    await store.flush();

    expect(JSON.parse(await readFile(file(), 'utf8')).records).toEqual([entry('a')]);
    expect(logger.lines).toEqual([expect.stringMatching(/^warning: .*after its store was disposed/)]);
  });
});

describe('boundRecords', () => {
  const limits = { isPrecious: (record: Entry) => record.hasPendingWork, slim: (record: Entry) => ({ ...record, prose: '' }) };
  const cost = (record: Entry): number => recordCost(JSON.stringify(record));
  const ids = (records: Entry[]): string[] => records.map((record) => record.id);

  it('returns the same records when within both bounds', () => {
    const records = [entry('a'), entry('b', 'x', true)];
    const result = boundRecords(records, { ...limits, maxCount: 2, maxBytes: cost(records[0]!) + cost(records[1]!) });

    expect(result).toEqual({ records, dropped: 0, slimmed: 0, droppedPrecious: 0 });
    expect(result.records[0]).toBe(records[0]);
  });

  it('drops the oldest non-precious records first, even past older precious ones', () => {
    const records = [entry('work', 'x', true), entry('a'), entry('b'), entry('c')];
    const result = boundRecords(records, { ...limits, maxCount: 2, maxBytes: Infinity });

    expect(ids(result.records)).toEqual(['work', 'c']);
    expect(result.dropped).toBe(2);
  });

  it('slims the oldest precious records once only precious ones are left over the byte bound', () => {
    const records = [entry('p1', 'long prose '.repeat(10), true), entry('p2', 'long prose '.repeat(10), true), entry('plain')];
    const maxBytes = cost(records[0]!) + cost({ ...records[1]!, prose: '' }) + cost({ ...records[1]!, prose: '' }) - 1;
    const result = boundRecords(records, { ...limits, maxCount: 5, maxBytes });

    expect(result.records).toEqual([{ ...records[0]!, prose: '' }, records[1]]);
    expect(result).toMatchObject({ dropped: 1, slimmed: 1, droppedPrecious: 0 });
  });

  it('drops the oldest precious records when slimming is not enough, then gives back whole forms that fit', () => {
    const records = [entry('p1', 'x', true), entry('p2', 'y', true), entry('p3', 'z'.repeat(50), true)];
    const slimmed = (record: Entry): Entry => ({ ...record, prose: '' });
    const result = boundRecords(records, { ...limits, maxCount: 5, maxBytes: cost(records[1]!) + cost(slimmed(records[2]!)) });

    expect(result.records).toEqual([records[1], slimmed(records[2]!)]);
    expect(result).toMatchObject({ slimmed: 1, droppedPrecious: 1 });
  });

  it('drops for the count before slimming anything', () => {
    const records = [entry('p1', 'x', true), entry('p2', 'y', true), entry('p3', 'z', true)];
    const result = boundRecords(records, { ...limits, maxCount: 2, maxBytes: Infinity });

    expect(ids(result.records)).toEqual(['p2', 'p3']);
    expect(result).toMatchObject({ slimmed: 0, droppedPrecious: 1 });
  });
});
