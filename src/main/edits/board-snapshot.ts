/**
 * An answer's hunks as they are kept between runs: the files the model named and each
 * hunk with its lines and state, without the file versions (a restored hunk is planned
 * again on what its file holds then). Checked field by field when read back: the file
 * is Flint's own, but it may be damaged or from another version.
 */
import { z } from 'zod';
import { isUndecided } from '../../shared/edits/hunk-state';
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import { hunkUpdateOf, type FileRecord, type HunkRecord } from './edit-records';
import type { Landing } from './revert-plan';
import { newerOverlap } from './superseded-hunks';

const LineSchema = z.object({ kind: z.enum(['context', 'remove', 'add']), text: z.string() }).strict();
/** A written line hunk's lines and what they replaced, for a revert; the file version it was written to is not kept (`entryId`: the journal has it). */
const LandingSchema = z.object({ start: z.number().int().nonnegative(), written: z.array(z.string()), replaced: z.array(z.string()), endings: z.array(z.string()), entryId: z.string().optional() }).strict();
const RevisedSchema = z.object({ kind: z.enum(['lines', 'edited']), words: z.string() }).strict();
/** One write of a hunk, by journal entry (see HunkWrite). */
const WriteSchema = z
  .object({
    entryId: z.string(),
    lines: z.array(LineSchema),
    revised: RevisedSchema.optional(),
    journalEntryId: z.string().optional(),
    writtenEntryIds: z.array(z.string()).optional(),
    landing: LandingSchema.optional(),
    ownEntries: z.boolean().optional(),
  })
  .strict();

const FileSchema = z
  .object({
    operation: z.enum(['add', 'update', 'delete']),
    format: z.enum(['patch', 'search-replace']),
    path: z.string(),
    pathNote: z.string().optional(),
    writtenAs: z.string().optional(),
    savedByUser: z.boolean().optional(),
    moveTo: z.string().optional(),
    movedFrom: z.string().optional(),
    refusal: z.string().optional(),
  })
  .strict();

const HunkSchema = z
  .object({
    id: z.string(),
    turn: z.number().int().positive(),
    number: z.number().int().positive(),
    kind: z.enum(['add', 'update', 'delete', 'move']),
    fileIndex: z.number().int().nonnegative(),
    state: z.enum(['streaming', 'pending', 'applying', 'accepted', 'rejected', 'partial', 'conflict', 'unmatched', 'refused']),
    rejectedFrom: z.enum(['pending', 'conflict', 'unmatched', 'partial', 'refused']).optional(),
    restOf: z.string().optional(),
    restId: z.string().optional(),
    lines: z.array(LineSchema),
    contextHints: z.array(z.string()),
    atEndOfFile: z.boolean(),
    anchorLine: z.number().int().positive().nullable(),
    message: z.string().optional(),
    journalEntryId: z.string().optional(),
    earlierEntryIds: z.array(z.string()).optional(),
    writtenEntryIds: z.array(z.string()).optional(),
    revertEntryIds: z.array(z.string()).optional(),
    landing: LandingSchema.optional(),
    revised: RevisedSchema.optional(),
    modelLines: z.array(LineSchema).optional(),
    ownEntries: z.boolean().optional(),
    writes: z.array(WriteSchema).optional(),
    superseded: z.boolean().optional(),
  })
  .strict();

export const BoardSnapshotSchema = z
  .object({ files: z.array(FileSchema), hunks: z.array(HunkSchema) })
  .strict()
  .refine((snapshot) => snapshot.hunks.every((hunk) => hunk.fileIndex < snapshot.files.length), 'a hunk names a file the snapshot does not have')
  .refine((snapshot) => new Set(snapshot.hunks.map((hunk) => hunk.id)).size === snapshot.hunks.length, 'two hunks share an id');

export type BoardSnapshot = z.infer<typeof BoardSnapshotSchema>;

/** The board's files and hunks, as plain data. */
export function snapshotOf(files: readonly FileRecord[], order: readonly HunkRecord[]): BoardSnapshot {
  return {
    files: files.map((file) => ({ ...file })),
    hunks: order.map((hunk) => ({
      id: hunk.id,
      turn: hunk.turn,
      number: hunk.number,
      kind: hunk.kind,
      fileIndex: hunk.fileIndex,
      state: hunk.state,
      ...(hunk.rejectedFrom !== undefined ? { rejectedFrom: hunk.rejectedFrom } : {}),
      ...(hunk.restOf !== undefined ? { restOf: hunk.restOf } : {}),
      ...(hunk.restId !== undefined ? { restId: hunk.restId } : {}),
      lines: hunk.lines,
      contextHints: hunk.contextHints,
      atEndOfFile: hunk.atEndOfFile,
      anchorLine: hunk.anchorLine,
      ...(hunk.message !== undefined ? { message: hunk.message } : {}),
      ...(hunk.journalEntryId !== undefined ? { journalEntryId: hunk.journalEntryId } : {}),
      ...(hunk.earlierEntryIds !== undefined ? { earlierEntryIds: hunk.earlierEntryIds } : {}),
      ...(hunk.writtenEntryIds !== undefined ? { writtenEntryIds: hunk.writtenEntryIds } : {}),
      ...(hunk.revertEntryIds !== undefined ? { revertEntryIds: hunk.revertEntryIds } : {}),
      ...(hunk.landing !== undefined ? { landing: landingOf(hunk.landing) } : {}),
      ...(hunk.revised !== undefined ? { revised: hunk.revised } : {}),
      ...(hunk.modelLines !== undefined ? { modelLines: hunk.modelLines } : {}),
      ...(hunk.ownEntries !== undefined ? { ownEntries: hunk.ownEntries } : {}),
      ...(hunk.writes !== undefined ? { writes: [...hunk.writes].map(([entryId, { landing, ...write }]) => ({ entryId, ...write, ...(landing !== undefined ? { landing: landingOf(landing) } : {}) })) } : {}),
      ...(hunk.superseded ? { superseded: true } : {}),
    })),
  };
}

/** A landing as kept: without its file version. */
function landingOf(landing: Landing): z.infer<typeof LandingSchema> {
  const { version: _version, ...kept } = landing;
  return kept;
}

/** A landing kept between runs: its version is read back from its journal entry when a revert needs it. */
const restoredLanding = (landing: z.infer<typeof LandingSchema> | undefined) => (landing ? { landing: { ...landing, version: null } } : {});

/**
 * The records a snapshot restores, and the hunks to settle again on today's files.
 *
 * - Undecided complete hunks are settled again (their file may have changed, moved or
 *   gone while Flint was not running): back to 'streaming', complete.
 * - A hunk that was still streaming is partial: its stream is gone.
 * - A hunk that was being written may or may not have landed: it is refused (only
 *   rejectable, never planned again, whatever the file does), so it is never written twice.
 *   The undo journal has what did land.
 */
export function restoredRecords(snapshot: BoardSnapshot): { files: FileRecord[]; hunks: HunkRecord[]; toSettle: HunkRecord[] } {
  const files: FileRecord[] = snapshot.files.map((file) => ({ ...file }));
  const hunks: HunkRecord[] = [];
  const toSettle: HunkRecord[] = [];
  for (const saved of snapshot.hunks) {
    const { landing, writes, ...rest } = saved;
    const hunk: HunkRecord = { ...rest, lines: [...saved.lines], contextHints: [...saved.contextHints], complete: true, base: null, ...restoredLanding(landing) };
    if (saved.modelLines !== undefined) hunk.modelLines = [...saved.modelLines];
    if (writes !== undefined) hunk.writes = new Map(writes.map(({ entryId, landing: written, ...write }) => [entryId, { ...write, lines: [...write.lines], ...restoredLanding(written) }]));
    if (saved.state === 'pending' || saved.state === 'conflict' || saved.state === 'unmatched') {
      hunk.state = 'streaming';
      toSettle.push(hunk);
    } else if (saved.state === 'streaming') {
      Object.assign(hunk, { state: 'partial', complete: false, message: 'Flint stopped before this hunk was complete; it can only be discarded.' });
    } else if (saved.state === 'applying') {
      Object.assign(hunk, { state: 'refused', message: 'Flint stopped while writing this hunk: it may or may not be on disk, so it is not offered again. Check the file; Undo has what was written.' });
    }
    hunks.push(hunk);
  }
  return { files, hunks, toSettle };
}

/** Every hunk with all its lines, as one update would carry it (a renderer loading the whole answer). */
export function hunkUpdatesOf(snapshot: BoardSnapshot): HunkUpdate[] {
  const records = snapshot.hunks.map(({ landing: _landing, writes: _writes, ...hunk }) => ({ ...hunk, complete: true, base: null }) satisfies HunkRecord);
  const pathOf = (hunk: HunkRecord): string => snapshot.files[hunk.fileIndex]!.path;
  return records.map((hunk) => {
    const overlap = hunk.superseded && isUndecided(hunk.state) ? newerOverlap(hunk, records, pathOf) : undefined;
    return hunkUpdateOf(hunk, snapshot.files[hunk.fileIndex]!, hunk.lines, overlap);
  });
}
