/**
 * A user's editor saving a file the way real editors do, for race tests against Flint's
 * writes: atomic (temp + rename, as JetBrains and vim with `backupcopy=no`), in place
 * (truncate + write, as VS Code), in place in two pieces with a pause (large files, slow
 * disks), each from a buffer that may be stale (the editor never reloaded Flint's change).
 *
 * Every save's bytes are unique, so a test can tell afterwards where each one went.
 */
import { open, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export type SaveKind = 'atomic' | 'in-place' | 'slow-in-place';

export interface EditorSave {
  kind: SaveKind;
  bytes: Buffer;
  /** What the save replaced (null: no file): the inode it rewrote, or what the name held just before an atomic save's rename. */
  replaced: Buffer | null;
  /**
   * An in-place save whose file was gone when its last piece landed (no name links it): it
   * paused longer than Flint's grace period, the documented limit of any watcher-side check.
   */
  orphaned?: boolean;
}

export class RacingEditor {
  readonly saves: EditorSave[] = [];
  private buffer: string;
  private count = 0;

  constructor(
    private readonly path: string,
    initial: string,
    private readonly random: () => number,
    private readonly label: string,
    /** Longest pause between the two pieces of a slow save (ms). */
    private readonly maxPauseMs: number,
    /** Whether Flint has the file taken aside mid-swap (its `.aside` scratch file exists, wherever Flint keeps those). */
    private readonly isTakenAside: () => Promise<boolean>,
  ) {
    this.buffer = initial;
  }

  /** Types something and saves it with a random kind; sometimes reloads from disk first. */
  async typeAndSave(kinds: readonly SaveKind[]): Promise<void> {
    const onDisk = await this.readDisk();
    if (onDisk !== null && this.random() < 0.5) this.buffer = onDisk.toString('utf8');
    const lines = this.buffer.split('\n');
    const at = Math.floor(this.random() * lines.length);
    lines.splice(at, 0, `user ${this.label} save ${(this.count += 1)}`);
    this.buffer = lines.join('\n');
    const bytes = Buffer.from(this.buffer);
    const kind = kinds[Math.floor(this.random() * kinds.length)]!;
    const save: EditorSave = { kind, bytes, replaced: onDisk };
    this.saves.push(save);
    await this.save(save);
  }

  /**
   * What the disk holds now. Flint's swap leaves the name absent for an instant (the file
   * is taken aside, then Flint's is linked in), so an absence counts only once no file is
   * taken aside any more: on a loaded machine that instant lasts longer than a few retries,
   * and a save that began in it would be recorded as replacing nothing, when it replaced
   * the file that was only aside. A deleted file stays absent with nothing aside.
   */
  private async readDisk(): Promise<Buffer | null> {
    for (let attempt = 0; ; attempt += 1) {
      const bytes = await readFile(this.path).catch(() => null);
      if (bytes !== null || (attempt >= 3 && !(await this.isTakenAside())) || attempt === 1000) return bytes;
      await sleep(2);
    }
  }

  /**
   * Opens the file under the name to rewrite it in place, as editors do, and records what
   * the save really replaces: the bytes of that very inode, read before it is truncated
   * (what the name held when the editor read it may have changed by the time it opens:
   * Flint may have put a late writer's bytes back meanwhile). The name is absent for an
   * instant while Flint swaps a file (see readDisk): then it tries again, so what it opens
   * is what it records. With no file under the name, one is created — exclusively: a file put
   * under the name between the look and the create (a late writer's bytes Flint put back) is
   * opened and recorded, never truncated unseen.
   */
  private async openInPlace(save: EditorSave): Promise<FileHandle> {
    for (let attempt = 0; ; attempt += 1) {
      const handle = await open(this.path, 'r+').catch(() => null);
      if (handle !== null) {
        save.replaced = await handle.readFile();
        await handle.truncate(0);
        return handle;
      }
      if ((attempt >= 3 && !(await this.isTakenAside())) || attempt >= 1000) {
        const created = await open(this.path, 'wx').catch(() => null);
        if (created !== null) {
          save.replaced = null;
          return created;
        }
      }
      await sleep(1);
    }
  }

  /** After an in-place save's last piece: whether the file it wrote is still under some name. */
  private async noteOrphan(save: EditorSave, handle: FileHandle): Promise<void> {
    if ((await handle.stat()).nlink === 0) save.orphaned = true;
  }

  private async save(save: EditorSave): Promise<void> {
    const { kind, bytes } = save;
    switch (kind) {
      case 'atomic': {
        const temporary = join(dirname(this.path), `${basename(this.path)}~editor-${this.count}`);
        await writeFile(temporary, bytes);
        // What the rename replaces is read just before it (Flint may have put a late writer's bytes back since the editor read the file).
        save.replaced = await this.readDisk();
        await rename(temporary, this.path);
        return;
      }
      case 'in-place': {
        const handle = await this.openInPlace(save);
        try {
          await handle.write(bytes, 0, bytes.length, 0);
          await this.noteOrphan(save, handle);
        } finally {
          await handle.close();
        }
        return;
      }
      case 'slow-in-place': {
        const handle = await this.openInPlace(save);
        try {
          const half = Math.floor(bytes.length / 2);
          await handle.write(bytes, 0, half, 0);
          await sleep(this.random() * this.maxPauseMs);
          await handle.write(bytes, half, bytes.length - half, half);
          await this.noteOrphan(save, handle);
        } finally {
          await handle.close();
        }
        return;
      }
      default: {
        const exhaustive: never = kind;
        return exhaustive;
      }
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
