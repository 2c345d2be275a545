/**
 * The shortcut setting through the core: saved, re-registered system-wide, reported.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HOTKEY } from '../../shared/accelerator';
import type { HotkeyStatus } from '../../shared/ask-types';
import type { EventEnvelope } from '../../shared/contract';
import { createTestCore } from '../../../test/helpers/test-core';
import { createContractHost, type ContractHost } from '../contract-host';
import { GlobalHotkey, type GlobalShortcutLike } from '../hotkey/global-hotkey';
import type { FlintCore } from './flint-core';

/** Electron's globalShortcut as far as the core can tell: some shortcuts belong to other apps. */
class TakenShortcuts implements GlobalShortcutLike {
  private readonly callbacks = new Map<string, () => void>();
  constructor(private readonly taken: string[]) {}
  get held(): Set<string> {
    return new Set(this.callbacks.keys());
  }
  register(accelerator: string, callback: () => void): boolean {
    if (this.taken.includes(accelerator) || this.callbacks.has(accelerator)) return false;
    this.callbacks.set(accelerator, callback);
    return true;
  }
  unregister(accelerator: string): void {
    this.callbacks.delete(accelerator);
  }
  /** The user presses it, in whatever app has focus. */
  press(accelerator: string): void {
    this.callbacks.get(accelerator)?.();
  }
}

describe('the ask bar shortcut setting', () => {
  let config: string;
  let core: FlintCore;
  let host: ContractHost;
  let events: EventEnvelope[];

  beforeEach(async () => {
    config = await mkdtemp(join(tmpdir(), 'flint-shortcut-'));
  });

  afterEach(async () => {
    await core.shutdown();
    await rm(config, { recursive: true, force: true });
  });

  const start = async (shortcut: GlobalShortcutLike | null) => {
    const hotkey = shortcut ? new GlobalHotkey({ shortcut, onPress: () => core.openAskBar('hotkey') }) : undefined;
    const created = await createTestCore({ configDirectory: config, hotkey });
    core = created.core;
    host = createContractHost(core.handlers, created.logger);
    events = [];
    core.onDidEmit((event) => events.push(event));
    return hotkey;
  };
  const statuses = () => events.filter((event) => event.channel === 'hotkey:status').map((event) => event.payload as HotkeyStatus);

  it('registers the default shortcut system-wide at start', async () => {
    const shortcuts = new TakenShortcuts([]);
    await start(shortcuts);
    expect(shortcuts.held).toEqual(new Set([DEFAULT_HOTKEY]));
    expect(core.hotkeyStatus).toMatchObject({ accelerator: DEFAULT_HOTKEY, state: 'registered' });
  });

  it('says at start when another app holds the shortcut, with free alternatives', async () => {
    await start(new TakenShortcuts([DEFAULT_HOTKEY]));
    const state = await host.invoke('app:getState', {});
    expect(state).toMatchObject({ ok: true, value: { hotkey: { state: 'failed', alternatives: expect.arrayContaining(['CommandOrControl+Alt+Space']) } } });
  });

  it('saves a new shortcut, moves the registration to it, and announces the status', async () => {
    const shortcuts = new TakenShortcuts([]);
    await start(shortcuts);
    const result = await host.invoke('settings:update', { shortcut: 'ctrl+alt+k' });
    expect(result).toEqual({ ok: true, value: { showIgnored: false, shortcut: 'Control+Alt+K', clipboardSelection: false, exclude: [] } });
    expect(shortcuts.held).toEqual(new Set(['Control+Alt+K']));
    expect(statuses().at(-1)).toMatchObject({ accelerator: 'Control+Alt+K', state: 'registered' });
    expect(JSON.parse(await readFile(join(config, 'settings.json'), 'utf8')).shortcut).toBe('Control+Alt+K');
  });

  it('keeps the working shortcut, unsaved change, when the new one is taken by another app', async () => {
    const shortcuts = new TakenShortcuts(['Control+Alt+K']);
    await start(shortcuts);
    const result = await host.invoke('settings:update', { shortcut: 'Ctrl+Alt+K' });
    expect(result).toEqual({ ok: true, value: { showIgnored: false, shortcut: DEFAULT_HOTKEY, clipboardSelection: false, exclude: [] } });
    expect(shortcuts.held).toEqual(new Set([DEFAULT_HOTKEY]));
    expect(statuses().at(-1)).toMatchObject({ accelerator: 'Control+Alt+K', state: 'failed', message: expect.stringContaining(`${DEFAULT_HOTKEY} still opens the ask bar`) });
    expect(statuses().at(-1)!.alternatives.length).toBeGreaterThan(0);
  });

  it('refuses a shortcut that is not one, in words, and keeps the old one', async () => {
    const shortcuts = new TakenShortcuts([]);
    await start(shortcuts);
    const result = await host.invoke('settings:update', { shortcut: 'K' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('needs a modifier') } });
    expect(shortcuts.held).toEqual(new Set([DEFAULT_HOTKEY]));
  });

  it('opens the ask bar in the renderer when the shortcut is pressed', async () => {
    const shortcuts = new TakenShortcuts([]);
    await start(shortcuts);
    shortcuts.press(DEFAULT_HOTKEY);
    expect(events.some((event) => event.channel === 'ask:open' && (event.payload as { trigger: string }).trigger === 'hotkey')).toBe(true);
  });

  it('gives the shortcut back when Flint quits', async () => {
    const shortcuts = new TakenShortcuts([]);
    const hotkey = await start(shortcuts);
    hotkey!.dispose();
    expect(shortcuts.held.size).toBe(0);
  });

  it('works only inside the app in the serve shell, and says so', async () => {
    await start(null);
    expect(core.hotkeyStatus).toMatchObject({ state: 'unavailable', message: expect.stringContaining('no system-wide shortcut') });
    await host.invoke('settings:update', { shortcut: 'Alt+Shift+Space' });
    expect(statuses().at(-1)).toMatchObject({ accelerator: 'Alt+Shift+Space', state: 'unavailable' });
  });
});
