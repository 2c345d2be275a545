import { DEFAULT_HOTKEY } from '../../shared/accelerator';
import { mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECENT_LIMIT, SettingsStore } from './settings-store';

/** Where the user let keys go beyond their own addresses: nowhere, by default. */
const NO_CONSENTS = { variables: {}, cleartext: [] };

describe('SettingsStore', () => {
  let directory: string;
  let file: string;

  beforeEach(async () => {
    directory = await realpath(await mkdtemp(join(tmpdir(), 'flint-settings-')));
    file = join(directory, 'settings.json');
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const readJson = async (): Promise<Record<string, unknown>> => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

  it('loads defaults from an empty folder and creates nothing', async () => {
    const { store, notice } = await SettingsStore.load(directory);

    expect(store.value).toEqual({ recentProjects: [], showIgnored: false, clipboardSelection: false, providers: [], exclude: [], shortcut: DEFAULT_HOTKEY, originConsents: NO_CONSENTS });
    expect(notice).toBeUndefined();
    expect(await readdir(directory)).toEqual([]);
  });

  it('creates the settings folder on the first write if it is missing', async () => {
    const nested = join(directory, 'config', 'Flint');
    const { store } = await SettingsStore.load(nested);

    await store.update({ showIgnored: true });

    expect(JSON.parse(await readFile(join(nested, 'settings.json'), 'utf8'))).toMatchObject({ showIgnored: true });
  });

  it('persists an update so a fresh load sees it', async () => {
    const { store } = await SettingsStore.load(directory);

    const returned = await store.update({ showIgnored: true });

    expect(returned.showIgnored).toBe(true);
    const reloaded = await SettingsStore.load(directory);
    expect(reloaded.store.value.showIgnored).toBe(true);
    expect(reloaded.notice).toBeUndefined();
  });

  it('writes the file readable by its owner only, leaving no temporary files', async () => {
    const { store } = await SettingsStore.load(directory);
    await store.update({ showIgnored: true });

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(directory)).toEqual(['settings.json']);
  });

  it('applies concurrent updates in order', async () => {
    const { store } = await SettingsStore.load(directory);

    const first = store.update({ showIgnored: true });
    const second = store.addRecent('/projects/a');
    const third = store.update({ showIgnored: false });
    await Promise.all([first, second, third]);
    await store.flush();

    expect(await readJson()).toEqual({ recentProjects: ['/projects/a'], showIgnored: false, clipboardSelection: false, providers: [], exclude: [], shortcut: DEFAULT_HOTKEY, originConsents: NO_CONSENTS });
  });

  describe('recent projects', () => {
    it('puts the most recent project first', async () => {
      const { store } = await SettingsStore.load(directory);

      await store.addRecent('/projects/a');
      await store.addRecent('/projects/b');

      expect(store.value.recentProjects).toEqual(['/projects/b', '/projects/a']);
    });

    it('moves a project already in the list to the front instead of duplicating it', async () => {
      const { store } = await SettingsStore.load(directory);
      await store.addRecent('/projects/a');
      await store.addRecent('/projects/b');
      await store.addRecent('/projects/c');

      await store.addRecent('/projects/a');

      expect(store.value.recentProjects).toEqual(['/projects/a', '/projects/c', '/projects/b']);
      expect((await readJson()).recentProjects).toEqual(['/projects/a', '/projects/c', '/projects/b']);
    });

    it(`keeps at most RECENT_LIMIT (${RECENT_LIMIT}) projects, dropping the oldest`, async () => {
      const { store } = await SettingsStore.load(directory);

      for (let index = 0; index < RECENT_LIMIT + 3; index += 1) await store.addRecent(`/projects/p${index}`);

      const recent = store.value.recentProjects;
      expect(recent).toHaveLength(RECENT_LIMIT);
      expect(recent[0]).toBe(`/projects/p${RECENT_LIMIT + 2}`);
      expect(recent).not.toContain('/projects/p0');
      expect(recent).not.toContain('/projects/p2');
      expect(recent).toContain('/projects/p3');
    });

    it('removes one project and keeps the order of the rest', async () => {
      const { store } = await SettingsStore.load(directory);
      await store.addRecent('/projects/a');
      await store.addRecent('/projects/b');
      await store.addRecent('/projects/c');

      await store.removeRecent('/projects/b');

      expect(store.value.recentProjects).toEqual(['/projects/c', '/projects/a']);
      const reloaded = await SettingsStore.load(directory);
      expect(reloaded.store.value.recentProjects).toEqual(['/projects/c', '/projects/a']);
    });

    it('leaves the list alone when removing a project that is not in it', async () => {
      const { store } = await SettingsStore.load(directory);
      await store.addRecent('/projects/a');

      await store.removeRecent('/projects/zzz');

      expect(store.value.recentProjects).toEqual(['/projects/a']);
    });
  });

  describe('damaged files', () => {
    it('sets an unparsable file aside, uses defaults and says so', async () => {
      await writeFile(file, '{ "showIgnored": tru');

      const { store, notice } = await SettingsStore.load(directory);

      expect(store.value).toEqual({ recentProjects: [], showIgnored: false, clipboardSelection: false, providers: [], exclude: [], shortcut: DEFAULT_HOTKEY, originConsents: NO_CONSENTS });
      const names = await readdir(directory);
      const aside = names.find((name) => name.startsWith('settings.json.corrupt-'));
      expect(aside).toBeDefined();
      expect(names).not.toContain('settings.json');
      expect(await readFile(join(directory, aside!), 'utf8')).toBe('{ "showIgnored": tru');
      expect(notice).toContain(aside!);
    });

    it('writes a fresh file after setting a corrupt one aside', async () => {
      await writeFile(file, 'not json at all');
      const { store } = await SettingsStore.load(directory);

      await store.addRecent('/projects/a');

      expect(await readJson()).toEqual({ recentProjects: ['/projects/a'], showIgnored: false, clipboardSelection: false, providers: [], exclude: [], shortcut: DEFAULT_HOTKEY, originConsents: NO_CONSENTS });
    });

    it('falls back to the default for a field with the wrong type and keeps the valid ones', async () => {
      await writeFile(file, JSON.stringify({ recentProjects: '/not/an/array', showIgnored: true }));

      const { store } = await SettingsStore.load(directory);

      expect(store.value).toEqual({ recentProjects: [], showIgnored: true, clipboardSelection: false, providers: [], exclude: [], shortcut: DEFAULT_HOTKEY, originConsents: NO_CONSENTS });
    });

    it('falls back to the default for a boolean field holding a string', async () => {
      await writeFile(file, JSON.stringify({ recentProjects: ['/projects/a'], showIgnored: 'yes' }));

      const { store } = await SettingsStore.load(directory);

      expect(store.value).toEqual({ recentProjects: ['/projects/a'], showIgnored: false, clipboardSelection: false, providers: [], exclude: [], shortcut: DEFAULT_HOTKEY, originConsents: NO_CONSENTS });
    });

    it('keeps exclude patterns that are .gitignore lines, and drops a list holding a line break or a blank', async () => {
      await writeFile(file, JSON.stringify({ exclude: ['dist/', '*.log'] }));
      expect((await SettingsStore.load(directory)).store.value.exclude).toEqual(['dist/', '*.log']);
      for (const exclude of [['dist/\n!src'], ['  '], 'dist/', [3]]) {
        await writeFile(file, JSON.stringify({ exclude }));
        expect((await SettingsStore.load(directory)).store.value.exclude).toEqual([]);
      }
    });

    it('returns a notice when a field falls back to its default', async () => {
      await writeFile(file, JSON.stringify({ recentProjects: 42, showIgnored: false }));

      const { notice } = await SettingsStore.load(directory);

      // The module documents "a field with a bad value falls back to its default, with a notice either way".
      expect(notice).toBeDefined();
    });

    it('falls back to the default shortcut when the stored one is not a shortcut, and says so', async () => {
      await writeFile(file, JSON.stringify({ shortcut: 'Shift+A' }));

      const { store, notice } = await SettingsStore.load(directory);

      expect(store.value.shortcut).toBe(DEFAULT_HOTKEY);
      expect(notice).toContain('shortcut');
    });

    it('keeps a valid stored shortcut', async () => {
      await writeFile(file, JSON.stringify({ shortcut: 'Alt+Shift+K' }));

      expect((await SettingsStore.load(directory)).store.value.shortcut).toBe('Alt+Shift+K');
    });

    it('uses defaults when the file holds JSON that is not an object', async () => {
      await writeFile(file, '[1, 2, 3]');

      const { store } = await SettingsStore.load(directory);

      expect(store.value).toEqual({ recentProjects: [], showIgnored: false, clipboardSelection: false, providers: [], exclude: [], shortcut: DEFAULT_HOTKEY, originConsents: NO_CONSENTS });
    });
  });

  it('keeps unknown keys across a write', async () => {
    await writeFile(file, JSON.stringify({ showIgnored: false, theme: 'dark', future: { nested: [1, 2] } }));
    const { store } = await SettingsStore.load(directory);

    await store.update({ showIgnored: true });

    expect(await readJson()).toEqual({ recentProjects: [], showIgnored: true, clipboardSelection: false, providers: [], exclude: [], shortcut: DEFAULT_HOTKEY, originConsents: NO_CONSENTS, theme: 'dark', future: { nested: [1, 2] } });
  });

  it('never writes a key-like field that was not already there', async () => {
    const { store } = await SettingsStore.load(directory);

    await store.addRecent('/projects/a');
    await store.update({ showIgnored: true });

    const text = await readFile(file, 'utf8');
    expect(text).not.toMatch(/key|token|secret/i);
    expect(Object.keys(await readJson()).sort()).toEqual(['clipboardSelection', 'exclude', 'originConsents', 'providers', 'recentProjects', 'shortcut', 'showIgnored']);
  });
});
