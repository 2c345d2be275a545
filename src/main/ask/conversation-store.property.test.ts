import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../logger';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { boundRecords, ConversationStore, recordCost } from './conversation-store';

interface Entry {
  id: string;
  prose: string;
  hasPendingWork: boolean;
}

const isPrecious = (record: Entry): boolean => record.hasPendingWork;
/** Cuts prose to five characters: for short prose, no smaller at all. */
const slim = (record: Entry): Entry => ({ ...record, prose: record.prose.slice(0, 5) });
const cost = (record: Entry): number => recordCost(JSON.stringify(record));
const totalCost = (records: readonly Entry[]): number => records.reduce((sum, record) => sum + cost(record), 0);
const smallest = (record: Entry): Entry => (cost(slim(record)) < cost(record) ? slim(record) : record);
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function randomRecords(random: () => number): Entry[] {
  const alphabet = ['a', 'b', 'é', '字', ' '];
  return Array.from({ length: Math.floor(random() * 14) }, (_, index) => ({
    id: `r${index}`,
    prose: Array.from({ length: Math.floor(random() * 60) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
    hasPendingWork: random() < 0.3,
  }));
}

/** Whether `kept` (ids) is a run at the end of `all` (ids). */
const isNewestOf = (kept: string[], all: string[]): boolean => kept.join('\n') === all.slice(all.length - kept.length).join('\n');

describe('boundRecords: the bound is hard, precious and newest records go last', () => {
  it('holds its invariants for random records and limits', () => {
    const first = baseSeed(1);
    for (let seed = first; seed < first + trialCount(400, 20_000); seed += 1) {
      const random = seededRandom(seed);
      const records = randomRecords(random);
      const maxCount = Math.floor(random() * 14);
      const maxBytes = Math.floor(random() * totalCost(records) * 1.2);
      const result = boundRecords(records, { maxCount, maxBytes, isPrecious, slim });
      const kept = result.records;
      const byId = new Map(records.map((record) => [record.id, record]));
      const message = `seed ${seed}`;

      expect(kept.length, message).toBeLessThanOrEqual(maxCount);
      expect(totalCost(kept), message).toBeLessThanOrEqual(maxBytes);
      // A subsequence, each record whole or slimmed, with counts that add up.
      const keptIds = kept.map((record) => record.id);
      expect(keptIds, message).toEqual(records.map((record) => record.id).filter((id) => keptIds.includes(id)));
      for (const record of kept) expect([byId.get(record.id), slim(byId.get(record.id)!)], message).toContainEqual(record);
      expect(kept.filter((record) => record !== byId.get(record.id)).length, message).toBe(result.slimmed);
      expect(result.dropped + result.droppedPrecious, message).toBe(records.length - kept.length);
      expect(result.dropped, message).toBe(records.filter((record) => !isPrecious(record) && !keptIds.includes(record.id)).length);

      if (records.length <= maxCount && totalCost(records) <= maxBytes) expect(kept, message).toEqual(records);
      const ofKind = (precious: boolean) => (list: readonly Entry[]) => list.filter((record) => isPrecious(record) === precious).map((record) => record.id);
      expect(isNewestOf(ofKind(false)(kept), ofKind(false)(records)), `${message}: an older plain record outlived a newer one`).toBe(true);
      expect(isNewestOf(ofKind(true)(kept), ofKind(true)(records)), `${message}: an older precious record outlived a newer one`).toBe(true);
      if (ofKind(false)(kept).length > 0) expect(result.droppedPrecious, `${message}: precious work dropped before plain`).toBe(0);
      // Slimming only as far as needed, and needed even with every plain record gone.
      const newestSlimmed = kept.findLast((record) => record !== byId.get(record.id));
      if (newestSlimmed !== undefined) {
        const precious = kept.filter(isPrecious).map((record) => (record === newestSlimmed ? byId.get(record.id)! : record));
        expect(totalCost(precious), `${message}: ${newestSlimmed.id} was slimmed but fits whole`).toBeGreaterThan(maxBytes);
      }

      // Nothing dropped that could have stayed: the newest dropped record, in its smallest form, would not fit.
      const dropped = records.filter((record) => !keptIds.includes(record.id)).at(-1);
      if (dropped !== undefined && (result.droppedPrecious > 0 ? isPrecious(dropped) : !isPrecious(dropped))) {
        const floor = result.droppedPrecious > 0 ? totalCost(kept.map(smallest)) + cost(smallest(dropped)) : totalCost(kept) + cost(dropped);
        expect(kept.length + 1 > maxCount || floor > maxBytes, `${message}: ${dropped.id} was dropped but fits`).toBe(true);
      }
    }
  });
});

describe('ConversationStore: saves are written in order, one at a time', () => {
  it('never overlaps writes, never writes an older list after a newer one, and ends with the last list', async () => {
    const first = baseSeed(1);
    for (let seed = first; seed < first + trialCount(15, 500); seed += 1) {
      const random = seededRandom(seed);
      const written: number[] = [];
      let running = 0;
      let mostRunning = 0;
      const write = async (_file: string, data: string): Promise<void> => {
        // Counted, not asserted here: the store catches (and logs) what a write throws.
        mostRunning = Math.max(mostRunning, (running += 1));
        for (let wait = Math.floor(random() * 4); wait > 0; wait -= 1) await turn();
        running -= 1;
        // A write that fails sometimes: its list is retried or superseded, never reordered.
        if (random() < 0.15) throw new Error('disk full');
        written.push(JSON.parse(data).records.length);
      };
      const { store } = await ConversationStore.open<Entry>({
        folder: '/nonexistent-flint-test-folder',
        projectRoot: `/project-${seed}`,
        parse: () => null,
        isPrecious,
        slim,
        maxCount: 1_000,
        saveDelayMs: Math.floor(random() * 3),
        logger: createMemoryLogger(),
        write,
      });
      const records: Entry[] = [{ id: 'first', prose: '', hasPendingWork: false }];
      store.save([...records]);
      for (let step = 0; step < 60; step += 1) {
        const roll = random();
        if (roll < 0.5) {
          records.push({ id: `r${step}`, prose: '', hasPendingWork: false });
          store.save([...records]);
        } else if (roll < 0.65) {
          void store.flush();
        } else {
          await turn();
        }
      }
      // The last list is written even if its first attempt failed: flush retries what failed.
      for (let attempt = 0; attempt < 100 && written.at(-1) !== records.length; attempt += 1) await store.flush();
      expect(written.at(-1), `seed ${seed}`).toBe(records.length);
      expect(mostRunning, `seed ${seed}: two writes at once`).toBe(1);

      for (let index = 1; index < written.length; index += 1) {
        expect(written[index], `seed ${seed}: ${written.join(',')}`).toBeGreaterThan(written[index - 1]!);
      }
      store.dispose();
    }
  });
});
