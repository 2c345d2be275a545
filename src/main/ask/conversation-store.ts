/**
 * Persisted conversation history: one JSON file per project in the user-data folder.
 *
 * Generic over the record type, so it knows nothing of the conversation model: the
 * caller validates each entry (`parse`), says which records hold undecided work
 * (`isPrecious`) and how to make one smaller (`slim`).
 *
 * Reads tolerate damage the way settings.json does: a file that cannot be read (torn, too
 * large, another project's, from a newer Flint) is set aside (renamed, never deleted or
 * overwritten) with a notice; invalid entries are left out, counted, the file copied aside. Writes are debounced (only the latest list is written), serialized (never two at once,
 * never an older list after a newer one), atomic, and bounded in count and bytes.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write';
import { errorCode } from '../fs/fs-errors';
import { readRegularFile } from '../fs/read-regular-file';
import type { Disposable } from '../lifecycle';
import type { Logger } from '../logger';

/** The `format` field: tells Flint's files apart from anything else named alike. */
export const CONVERSATION_FORMAT = 'flint-conversations';
/** The file version this Flint writes; a greater one is set aside, not overwritten. */
export const CONVERSATION_VERSION = 1;
export const DEFAULT_MAX_COUNT = 50;
export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
/** Long enough to coalesce a burst of updates, short enough that a crash loses little. */
export const DEFAULT_SAVE_DELAY_MS = 200;

export interface ConversationStoreOptions<T extends { id: string }> {
  /** Folder of the history files, e.g. `<config>/conversations`; created on first write. */
  folder: string;
  /** The project's root: names the file (by hash) and is checked on read. */
  projectRoot: string;
  /** Validates one entry; null (or a throw) drops it, counted in the notice. */
  parse: (value: unknown) => T | null;
  /** Has undecided work: dropped last when bounding. */
  isPrecious: (record: T) => boolean;
  /** A smaller form (e.g. prose cut), used when dropping the others is not enough. */
  slim: (record: T) => T;
  /** Most records kept (default 50). */
  maxCount?: number;
  /** Largest file written, in bytes (default 4 MiB). */
  maxBytes?: number;
  /** A file larger than this is set aside unread (default 4 × maxBytes). */
  readLimit?: number;
  /** How long a save waits, gathering later ones, before it is written (default 200 ms). */
  saveDelayMs?: number;
  logger: Logger;
  /** Writes the file (default: create the folder, then writeFileAtomic). A seam for tests. */
  write?: (file: string, data: string) => Promise<void>;
}

/** What `ConversationStore.open` found. */
export interface OpenedConversations<T extends { id: string }> {
  store: ConversationStore<T>;
  /** The persisted records, oldest first, valid and within bounds. */
  records: T[];
  /** What was repaired or set aside, for the user; null when the file was fine or absent. */
  notice: string | null;
}

export interface BoundLimits<T> {
  maxCount: number;
  /** Budget for the records alone: the sum of `recordCost` over those kept. */
  maxBytes: number;
  isPrecious: (record: T) => boolean;
  slim: (record: T) => T;
  /** Serializes one record (default JSON.stringify); the store passes one that remembers. */
  serialize?: (record: T) => string;
}

export interface BoundResult<T> {
  /** Kept records, oldest first: originals, or `slim` of one where slimming was needed. */
  records: T[];
  /** Non-precious records dropped. */
  dropped: number;
  /** Kept records that are in their slim form. */
  slimmed: number;
  /** Precious records dropped: the bound is hard, so the caller should warn. */
  droppedPrecious: number;
}

/** Bytes one record takes in the file: its JSON and the ",\n" that separates it. */
export function recordCost(json: string): number {
  return Buffer.byteLength(json, 'utf8') + 2;
}

/**
 * Keeps `records` (oldest first) within `maxCount` and `maxBytes`, pure.
 *
 * In order, each step only while still over a bound: drop the oldest non-precious
 * records; drop the oldest of the rest while over the count (slimming cannot fix that);
 * replace the oldest by their slim form; drop the oldest of the rest. Then, as slimming
 * and dropping go a whole record at a time, give back what now fits: whole forms of
 * slimmed records, or the newest dropped non-precious ones, newest first.
 * Whatever survives keeps its order, and the newest of each kind go last.
 */
export function boundRecords<T>(records: readonly T[], limits: BoundLimits<T>): BoundResult<T> {
  const serialize = limits.serialize ?? ((record: T) => JSON.stringify(record));
  const kept: Kept<T>[] = records.map((record, index) => ({ record, cost: recordCost(serialize(record)), index }));
  let bytes = kept.reduce((sum, entry) => sum + entry.cost, 0);
  const isOver = (): boolean => kept.length > limits.maxCount || bytes > limits.maxBytes;
  const fits = (extraCount: number, extraBytes: number): boolean =>
    kept.length + extraCount <= limits.maxCount && bytes + extraBytes <= limits.maxBytes;
  const result: BoundResult<T> = { records: [], dropped: 0, slimmed: 0, droppedPrecious: 0 };
  const droppedPlain: Kept<T>[] = [];

  for (let index = 0; index < kept.length && isOver(); ) {
    if (limits.isPrecious(kept[index]!.record)) {
      index += 1;
      continue;
    }
    const [entry] = kept.splice(index, 1);
    bytes -= entry!.cost;
    droppedPlain.push(entry!);
    result.dropped += 1;
  }
  // Only precious records are left if still over. Slimming cannot help the count: drop for it first.
  const dropOldest = (): void => {
    const entry = kept.shift()!;
    bytes -= entry.cost;
    result.droppedPrecious += 1;
    if (entry.original !== undefined) result.slimmed -= 1;
  };
  while (kept.length > limits.maxCount) dropOldest();
  for (let index = 0; index < kept.length && bytes > limits.maxBytes; index += 1) {
    const entry = kept[index]!;
    const slim = limits.slim(entry.record);
    const cost = recordCost(serialize(slim));
    if (cost >= entry.cost) continue;
    bytes += cost - entry.cost;
    kept[index] = { record: slim, cost, index: entry.index, original: entry };
    result.slimmed += 1;
  }
  while (kept.length > 0 && bytes > limits.maxBytes) dropOldest();

  if (result.droppedPrecious > 0) {
    // Dropping may have made room to give back whole forms, the newest first.
    for (let index = kept.length - 1; index >= 0 && result.slimmed > 0; index -= 1) {
      const original = kept[index]!.original;
      if (original === undefined || !fits(0, original.cost - kept[index]!.cost)) continue;
      bytes += original.cost - kept[index]!.cost;
      kept[index] = original;
      result.slimmed -= 1;
    }
  } else if (result.slimmed > 0) {
    // A slim form may save more than was needed: give back the newest plain records that fit.
    for (let entry = droppedPlain.pop(); entry !== undefined && fits(1, entry.cost); entry = droppedPlain.pop()) {
      const after = kept.findIndex((other) => other.index > entry!.index);
      kept.splice(after === -1 ? kept.length : after, 0, entry);
      bytes += entry.cost;
      result.dropped -= 1;
    }
  }
  result.records = kept.map((entry) => entry.record);
  return result;
}

/** One record while bounding: its place in the input, and its whole form if it was slimmed. */
type Kept<T> = { record: T; cost: number; index: number; original?: Kept<T> };

const Envelope = z.object({
  format: z.literal(CONVERSATION_FORMAT),
  version: z.literal(CONVERSATION_VERSION),
  projectRoot: z.string(),
  records: z.array(z.unknown()),
});

/** Why a file was set aside; names the aside file and the notice. */
type SetAsideReason = { kind: 'corrupt' } | { kind: 'too-large' } | { kind: 'newer'; version: number } | { kind: 'other-project' };

/** What the file held, decided before anything is renamed. */
type ReadOutcome = { kind: 'absent' } | { kind: 'records'; values: unknown[] } | { kind: 'set-aside'; reason: SetAsideReason; detail?: string };

export class ConversationStore<T extends { id: string }> implements Disposable {
  /** The latest list not yet written (a failed write keeps its list here, for flush to retry). */
  private pending: readonly T[] | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The write chain: each link writes whatever is pending when it runs. */
  private writes: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly maxCount: number;
  private readonly maxBytes: number;

  private constructor(
    /** The history file. */
    readonly file: string,
    private readonly options: ConversationStoreOptions<T>,
    /** False when an unreadable file could not be set aside: writing would destroy it. */
    private readonly isWritable: boolean,
  ) {
    this.maxCount = options.maxCount ?? DEFAULT_MAX_COUNT;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  /** The file that holds `projectRoot`'s history in `folder` (named like the undo journals). */
  static fileFor(folder: string, projectRoot: string): string {
    return join(folder, `${createHash('sha256').update(projectRoot).digest('hex').slice(0, 16)}.json`);
  }

  /** Reads the project's history; never throws for what the file holds, only reports it. */
  static async open<T extends { id: string }>(options: ConversationStoreOptions<T>): Promise<OpenedConversations<T>> {
    const file = ConversationStore.fileFor(options.folder, options.projectRoot);
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const outcome = await readHistory(file, options.projectRoot, options.readLimit ?? 4 * maxBytes);
    if (outcome.kind === 'absent') return { store: new ConversationStore(file, options, true), records: [], notice: null };
    if (outcome.kind === 'set-aside') {
      const { notice, isWritable } = await setAside(file, outcome.reason, outcome.detail, options.logger);
      return { store: new ConversationStore(file, options, isWritable), records: [], notice };
    }
    const store = new ConversationStore(file, options, true);
    const { records, invalid } = store.parseAll(outcome.values);
    const bounded = store.bound(records);
    if (invalid === 0) return { store, records: bounded, notice: null };
    // The next save drops those entries from the file: a copy of it keeps them (a newer Flint's, say).
    const copy = `${file}.unread-${Date.now()}`;
    const kept = await copyFile(file, copy).then(() => ` The file as it was is kept as ${copy}.`, () => '');
    const notice = `${invalid} saved conversation ${invalid === 1 ? 'entry' : 'entries'} in ${file} could not be read and ${invalid === 1 ? 'was' : 'were'} left out.${kept}`;
    options.logger.warn(notice);
    return { store, records: bounded, notice };
  }

  /** Schedules a write of `records` (oldest first); only the latest list of a burst is written. */
  save(records: readonly T[]): void {
    if (this.disposed) {
      this.options.logger.warn(`Conversation history for ${this.options.projectRoot} saved after its store was disposed; not written.`);
      return;
    }
    if (!this.isWritable) return;
    this.pending = records;
    // Not restarted by later saves: a steady stream of saves still writes every delay.
    this.timer ??= setTimeout(() => void this.writeNow(), this.options.saveDelayMs ?? DEFAULT_SAVE_DELAY_MS);
  }

  /** Writes now if a write is pending, and waits for every write so far. Never rejects. */
  flush(): Promise<void> {
    return this.pending === undefined ? this.writes : this.writeNow();
  }

  /** Stops taking saves and starts writing what is pending; `flush()` waits for it. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.flush();
  }

  private writeNow(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writes = this.writes.then(() => this.writePending());
    return this.writes;
  }

  /** One link of the chain: takes the newest pending list, so no older list follows a newer one. */
  private async writePending(): Promise<void> {
    const records = this.pending;
    if (records === undefined) return;
    this.pending = undefined;
    try {
      // Stringified once per write, for bounding and writing alike. Not cached across writes:
      // the caller may update a record in place.
      const json = new Map<T, string>();
      const jsonOf = (record: T): string => json.get(record) ?? json.set(record, JSON.stringify(record)).get(record)!;
      const data = `${envelopeHead(this.options.projectRoot)}${this.bound(records, jsonOf).map(jsonOf).join(',\n')}${ENVELOPE_TAIL}`;
      await (this.options.write ?? defaultWrite)(this.file, data);
    } catch (error) {
      this.options.logger.error(`Could not save conversation history to ${this.file}; will retry on the next save`, error);
      this.pending ??= records;
    }
  }

  private bound(records: readonly T[], serialize?: (record: T) => string): T[] {
    const result = boundRecords(records, {
      maxCount: this.maxCount,
      maxBytes: this.maxBytes - envelopeBytes(this.options.projectRoot),
      isPrecious: this.options.isPrecious,
      slim: this.options.slim,
      serialize,
    });
    if (result.droppedPrecious > 0) {
      this.options.logger.warn(
        `Conversation history for ${this.options.projectRoot} is over its limit (${this.maxCount} records, ${this.maxBytes} bytes) with undecided work only; dropped the ${result.droppedPrecious} oldest.`,
      );
    }
    return result.records;
  }

  /** Valid entries in order; a later entry with an id already seen counts as invalid. */
  private parseAll(values: readonly unknown[]): { records: T[]; invalid: number } {
    const records: T[] = [];
    const ids = new Set<string>();
    for (const value of values) {
      const record = safeParse(this.options.parse, value);
      if (record === null || ids.has(record.id)) continue;
      ids.add(record.id);
      records.push(record);
    }
    return { records, invalid: values.length - records.length };
  }
}

/** The file up to the first record; one record a line after it, so a torn file is plainly torn. */
function envelopeHead(projectRoot: string): string {
  return `{"format":${JSON.stringify(CONVERSATION_FORMAT)},"version":${CONVERSATION_VERSION},"projectRoot":${JSON.stringify(projectRoot)},"records":[\n`;
}
const ENVELOPE_TAIL = '\n]}\n';

/** Bytes of the file besides its records' costs. */
function envelopeBytes(projectRoot: string): number {
  return Buffer.byteLength(envelopeHead(projectRoot), 'utf8') + Buffer.byteLength(ENVELOPE_TAIL, 'utf8');
}

async function defaultWrite(file: string, data: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // Conversations quote the user's code: readable by the user only.
  await writeFileAtomic(file, data, { mode: 0o600 });
}

/** A parser that throws drops the entry, like one that returns null: one bad entry must not lose the rest. */
function safeParse<T>(parse: (value: unknown) => T | null, value: unknown): T | null {
  try {
    return parse(value);
  } catch {
    return null;
  }
}

/** Reads and classifies the file, reading no more than `readLimit` bytes. */
async function readHistory(file: string, projectRoot: string, readLimit: number): Promise<ReadOutcome> {
  let read;
  try {
    read = await readRegularFile(file, file, readLimit);
  } catch (error) {
    // readRegularFile throws FlintFailures, whose `code` errorCode reads too.
    const code = errorCode(error);
    // No file, or the folder is not a folder (then writes fail, and are logged).
    if (code === 'not-found' || code === 'not-a-directory') return { kind: 'absent' };
    return { kind: 'set-aside', reason: { kind: 'corrupt' }, detail: error instanceof Error ? error.message : String(error) };
  }
  if (read.kind === 'too-large') return { kind: 'set-aside', reason: { kind: 'too-large' }, detail: `${read.size} bytes` };
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.bytes));
  } catch {
    return { kind: 'set-aside', reason: { kind: 'corrupt' } };
  }
  const version = typeof raw === 'object' && raw !== null && 'version' in raw ? raw.version : undefined;
  // Checked before the shape: a newer version may have changed it.
  if (typeof version === 'number' && Number.isInteger(version) && version > CONVERSATION_VERSION) {
    return { kind: 'set-aside', reason: { kind: 'newer', version } };
  }
  const envelope = Envelope.safeParse(raw);
  if (!envelope.success) return { kind: 'set-aside', reason: { kind: 'corrupt' } };
  if (envelope.data.projectRoot !== projectRoot) {
    return { kind: 'set-aside', reason: { kind: 'other-project' }, detail: `it names ${envelope.data.projectRoot}` };
  }
  return { kind: 'records', values: envelope.data.records };
}

/** Renames `file` aside; if that fails too, the store must not write over it. */
async function setAside(
  file: string,
  reason: SetAsideReason,
  detail: string | undefined,
  logger: Logger,
): Promise<{ notice: string; isWritable: boolean }> {
  const suffix = reason.kind === 'newer' ? `newer-v${reason.version}` : reason.kind;
  const why = {
    corrupt: 'could not be read',
    'too-large': 'is too large to read',
    newer: `comes from a newer Flint (version ${reason.kind === 'newer' ? reason.version : ''})`,
    'other-project': 'belongs to another project',
  }[reason.kind];
  const what = `The conversation history ${file} ${why}${detail ? ` (${detail})` : ''}`;
  try {
    const aside = await unusedPath(`${file}.${suffix}-${Date.now()}`);
    await rename(file, aside);
    logger.warn(`${what}; set aside as ${aside}.`);
    return { notice: `${what}. It was set aside as ${aside}; history starts empty.`, isWritable: true };
  } catch (error) {
    logger.error(`${what}, and could not be set aside`, error);
    return { notice: `${what}, and could not be set aside; conversation history will not be saved this session.`, isWritable: false };
  }
}

/** `path`, or `path-2`, `path-3`…: rename would replace an earlier aside file of the same millisecond. */
async function unusedPath(path: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const candidate = attempt === 1 ? path : `${path}-${attempt}`;
    try {
      await stat(candidate);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return candidate;
      throw error;
    }
  }
}
