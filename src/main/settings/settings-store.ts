/**
 * settings.json: recent projects and UI preferences. Never keys.
 *
 * Reads tolerate damage: an unparsable file is set aside (renamed, not deleted) and
 * a field with a bad value falls back to its default, with a notice either way.
 * Unknown fields are kept, so an older Flint does not erase a newer one's settings.
 * Writes are atomic and serialized.
 */
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_HOTKEY, parseAccelerator } from '../../shared/accelerator';
import { ExcludePatterns } from '../../shared/exclude-patterns';
import { writeFileAtomic } from '../fs/atomic-write';
import { errorCode } from '../fs/fs-errors';

/** How many projects the Recent list remembers. */
export const RECENT_LIMIT = 10;

const SettingsSchema = z.looseObject({
  recentProjects: z.array(z.string().min(1)).catch([]).default([]),
  showIgnored: z.boolean().catch(false).default(false),
  /** macOS and Windows: the clipboard stands in for the selection (off unless the user opts in). */
  clipboardSelection: z.boolean().catch(false).default(false),
  /** Extra or overriding providers (validated when the catalog is built). */
  providers: z.array(z.unknown()).catch([]).default([]),
  /** The provider in use. */
  activeProvider: z.string().min(1).optional().catch(undefined),
  /**
   * Where the user let a key go beyond what its source names (see inference/provider-keys.ts):
   * an environment variable's key to another origin, and any key over plain http to an origin
   * that is not this machine. Origins, never keys.
   */
  originConsents: z
    .object({
      variables: z.record(z.string(), z.array(z.string())).catch({}).default({}),
      cleartext: z.array(z.string()).catch([]).default([]),
    })
    .catch({ variables: {}, cleartext: [] })
    .default({ variables: {}, cleartext: [] }),
  /** What every project hides besides its .gitignore files (.gitignore lines; see UiSettings). */
  exclude: ExcludePatterns.catch([]).default([]),
  /** The ask bar's shortcut, system-wide (Electron) and in the app. */
  shortcut: z
    .string()
    .refine((text) => parseAccelerator(text).ok)
    .catch(DEFAULT_HOTKEY)
    .default(DEFAULT_HOTKEY),
});

export type Settings = z.infer<typeof SettingsSchema>;

export class SettingsStore {
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    private settings: Settings,
  ) {}

  /**
   * Loads settings.json from `directory`, creating nothing until the first write.
   *
   * `notice` says what was repaired, if anything.
   */
  static async load(directory: string): Promise<{ store: SettingsStore; notice?: string }> {
    const file = join(directory, 'settings.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { store: new SettingsStore(file, SettingsSchema.parse({})) };
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      // Set aside rather than overwrite: the user may want what was in it.
      const aside = `${file}.corrupt-${Date.now()}`;
      await rename(file, aside);
      return {
        store: new SettingsStore(file, SettingsSchema.parse({})),
        notice: `settings.json could not be read and was set aside as ${aside}; defaults are in use.`,
      };
    }
    const settings = SettingsSchema.parse(raw);
    const reset = Object.keys(SettingsSchema.shape).filter(
      (key) => key in raw && JSON.stringify((raw as Record<string, unknown>)[key]) !== JSON.stringify(settings[key]),
    );
    const notice =
      reset.length > 0 ? `settings.json had invalid values for ${reset.join(', ')}; they were reset to their defaults.` : undefined;
    return { store: new SettingsStore(file, settings), notice };
  }

  get value(): Readonly<Settings> {
    return this.settings;
  }

  /** Merges `patch` and writes the file. */
  update(patch: Partial<Settings>): Promise<Settings> {
    this.settings = { ...this.settings, ...patch };
    return this.persist();
  }

  /** Puts `root` first in the Recent list. */
  addRecent(root: string): Promise<Settings> {
    const rest = this.settings.recentProjects.filter((path) => path !== root);
    return this.update({ recentProjects: [root, ...rest].slice(0, RECENT_LIMIT) });
  }

  removeRecent(root: string): Promise<Settings> {
    return this.update({ recentProjects: this.settings.recentProjects.filter((path) => path !== root) });
  }

  /** Waits for pending writes (tests, shutdown). */
  flush(): Promise<void> {
    return this.writes;
  }

  private persist(): Promise<Settings> {
    const snapshot = JSON.stringify(this.settings, null, 2) + '\n';
    const folder = join(this.file, '..');
    const write = this.writes.then(async () => {
      await mkdir(folder, { recursive: true });
      await writeFileAtomic(this.file, snapshot, { mode: 0o600 });
    });
    this.writes = write.catch(() => undefined);
    return write.then(() => this.settings);
  }
}
