/**
 * Flint's side of the save-race property: one random action on `app.ts` (and `moved.ts`,
 * where a move takes it) through the real applier, and what it changed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EditApplier } from '../../src/main/edits/edit-applier';
import type { JournalEntry, UndoOutcome } from '../../src/main/edits/undo-journal';
import { versionOfText } from './file-versions';
import { sleep } from './racing-editor';

/** A file an action changed, and what it left under that name (null: nothing). */
export interface FlintChange {
  path: string;
  after: Buffer | null;
}

export interface FlintStepOutcome {
  changes: FlintChange[];
  /** Every before- and after-image the journal now holds for the action: Undo can bring these back. */
  images: Buffer[];
  /** A refusal or conflict, in words. */
  message?: string;
  /** For traces. */
  what: string;
}

/** One random Flint action: accept a hunk (fresh or stale base), delete, move either way, create (then perhaps undo it), undo or redo. */
export async function flintStep(applier: EditApplier, random: () => number, root: string): Promise<FlintStepOutcome> {
  const roll = random();
  const current = await readFile(join(root, 'app.ts'), 'utf8').catch(() => null);
  const moved = await readFile(join(root, 'moved.ts'), 'utf8').catch(() => null);
  const lines = current?.split('\n').filter(Boolean) ?? [];
  if (roll < 0.45 && current !== null && lines.length > 0) {
    const target = lines[Math.floor(random() * lines.length)]!;
    const base = random() < 0.5 ? versionOfText(current.replace(/\n$/, '')) : null;
    await sleep(random() * 4);
    return applied('accept', await applier.applyHunk({ path: 'app.ts', lines: [{ kind: 'remove', text: target }, { kind: 'add', text: `flint ${roll.toFixed(6)}` }], base }));
  }
  if (roll < 0.55 && current !== null) return applied('delete', await applier.deleteFile('app.ts'));
  if (roll < 0.6 && current !== null && moved === null) return applied('move away', await applier.moveFile('app.ts', 'moved.ts'));
  if (roll < 0.65 && current === null && moved !== null) return applied('move back', await applier.moveFile('moved.ts', 'app.ts'));
  if (roll < 0.7 && current === null) {
    const created = applied('create', await applier.createFile('app.ts', ['created by flint']));
    if (created.changes.length === 0 || random() < 0.5) return created;
    // Undo of the create, at once: the file goes, whatever the editor did meanwhile is kept.
    const undone = undoOutcome('undo create', await applier.undo(), 'undo');
    return { ...undone, images: [...created.images, ...undone.images], changes: [...created.changes, ...undone.changes] };
  }
  return roll < 0.88 ? undoOutcome('undo', await applier.undo(), 'undo') : undoOutcome('redo', await applier.redo(), 'redo');
}

type Applied = Awaited<ReturnType<EditApplier['deleteFile']>>;

function applied(what: string, result: Applied): FlintStepOutcome {
  if (result.status !== 'applied') return { changes: [], images: [], what: `${what}: ${result.status}`, ...('message' in result && result.message !== undefined ? { message: result.message } : {}) };
  // An entry of null: already so, nothing written.
  const entries = result.entries ?? (result.entry ? [result.entry] : []);
  return { changes: entries.map((entry) => ({ path: entry.path, after: bytes(entry.after) })), images: imagesOf(entries), what };
}

function undoOutcome(what: string, outcome: UndoOutcome, op: 'undo' | 'redo'): FlintStepOutcome {
  if (outcome.status === 'empty') return { changes: [], images: [], what: `${what}: nothing` };
  const entries = outcome.status === 'done' ? outcome.entries : outcome.done;
  const changes = entries.map((entry) => ({ path: entry.path, after: bytes(op === 'undo' ? entry.before : entry.after) }));
  return { changes, images: imagesOf(entries), what: `${what}: ${outcome.status}`, ...(outcome.status !== 'done' ? { message: outcome.message } : {}) };
}

function imagesOf(entries: readonly JournalEntry[]): Buffer[] {
  return entries.flatMap((entry) => [entry.before, entry.after]).filter((image) => image !== null).map((image) => Buffer.from(image));
}

function bytes(image: Uint8Array | null): Buffer | null {
  return image === null ? null : Buffer.from(image);
}
