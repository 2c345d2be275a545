import { describe, expect, it, vi } from 'vitest';
import { HOTKEY_CANDIDATES, parseAccelerator } from '../../shared/accelerator';
import type { HotkeyStatus } from '../../shared/ask-types';
import { GlobalHotkey, type GlobalShortcutLike } from './global-hotkey';

/**
 * Behaves like Electron's globalShortcut: accelerators are compared by meaning, not
 * spelling, and one already held (by another app or by us) is refused with false.
 */
class FakeGlobalShortcut implements GlobalShortcutLike {
  readonly registered = new Map<string, () => void>();
  readonly registerCalls: string[] = [];
  readonly unregisterCalls: string[] = [];
  private readonly taken = new Set<string>();
  private readonly malformed = new Set<string>();

  takenByAnotherApp(...accelerators: string[]): this {
    for (const accelerator of accelerators) this.taken.add(canonical(accelerator));
    return this;
  }

  freedByAnotherApp(...accelerators: string[]): this {
    for (const accelerator of accelerators) this.taken.delete(canonical(accelerator));
    return this;
  }

  rejectsAsMalformed(...accelerators: string[]): this {
    for (const accelerator of accelerators) this.malformed.add(canonical(accelerator));
    return this;
  }

  register(accelerator: string, callback: () => void): boolean {
    this.registerCalls.push(accelerator);
    const key = canonical(accelerator);
    if (this.malformed.has(key)) throw new Error(`Invalid accelerator: ${accelerator}`);
    if (this.taken.has(key) || this.registered.has(key)) return false;
    this.registered.set(key, callback);
    return true;
  }

  unregister(accelerator: string): void {
    this.unregisterCalls.push(accelerator);
    this.registered.delete(canonical(accelerator));
  }

  /** The user presses the shortcut in some other app. */
  press(accelerator: string): void {
    const callback = this.registered.get(canonical(accelerator));
    if (!callback) throw new Error(`${accelerator} is not registered`);
    callback();
  }

  isRegistered(accelerator: string): boolean {
    return this.registered.has(canonical(accelerator));
  }
}

function canonical(accelerator: string): string {
  const parsed = parseAccelerator(accelerator);
  if (!parsed.ok) throw new Error(`the fake cannot read ${accelerator}`);
  return parsed.text;
}

function setup(options: { platformNote?: string } = {}) {
  const shortcut = new FakeGlobalShortcut();
  const onPress = vi.fn();
  const hotkey = new GlobalHotkey({ shortcut, onPress, ...options });
  const statuses: HotkeyStatus[] = [];
  hotkey.onDidChangeStatus((status) => statuses.push(status));
  return { shortcut, onPress, hotkey, statuses };
}

describe('GlobalHotkey', () => {
  it('reports that no shortcut is registered before the first registration', () => {
    const { hotkey } = setup();
    expect(hotkey.status).toMatchObject({ state: 'failed', alternatives: [] });
  });

  it('registers the normalized accelerator and reports it registered', () => {
    const { shortcut, hotkey } = setup();
    const status = hotkey.register('shift+cmdorctrl+space');
    expect(status).toEqual({ accelerator: 'CommandOrControl+Shift+Space', state: 'registered', alternatives: [] });
    expect(hotkey.status).toBe(status);
    expect([...shortcut.registered.keys()]).toEqual(['CommandOrControl+Shift+Space']);
    expect(shortcut.registerCalls).toEqual(['CommandOrControl+Shift+Space']);
  });

  it('calls onPress each time the registered shortcut is pressed', () => {
    const { shortcut, onPress, hotkey } = setup();
    hotkey.register('Ctrl+Alt+K');
    expect(onPress).not.toHaveBeenCalled();
    shortcut.press('Control+Alt+K');
    shortcut.press('Control+Alt+K');
    expect(onPress).toHaveBeenCalledTimes(2);
  });

  it('reports a shortcut taken by another app as failed, naming it and offering free alternatives', () => {
    const { shortcut, hotkey } = setup();
    shortcut.takenByAnotherApp('CommandOrControl+Shift+Space', 'CommandOrControl+Alt+Space', 'CommandOrControl+Shift+K');
    const status = hotkey.register('CmdOrCtrl+Shift+Space');
    expect(status.state).toBe('failed');
    expect(status.accelerator).toBe('CommandOrControl+Shift+Space');
    expect(status.message).toContain('CommandOrControl+Shift+Space could not be registered');
    // The first three candidates that are neither the refused one nor taken, in the candidates' order.
    expect(status.alternatives).toEqual(['Alt+Shift+Space', 'CommandOrControl+Alt+K', 'Super+Shift+Space']);
  });

  it('leaves none of the probed alternatives registered', () => {
    const { shortcut, hotkey, onPress } = setup();
    shortcut.takenByAnotherApp('CommandOrControl+Shift+Space');
    const status = hotkey.register('CommandOrControl+Shift+Space');
    expect(status.alternatives).toHaveLength(3);
    expect(shortcut.registered.size).toBe(0);
    for (const alternative of status.alternatives) expect(shortcut.isRegistered(alternative), alternative).toBe(false);
    expect(onPress).not.toHaveBeenCalled();
  });

  it('offers only alternatives that are free, fewer than three when fewer are', () => {
    const { shortcut, hotkey } = setup();
    const free = ['Alt+Shift+Space', 'CommandOrControl+Shift+F12'];
    shortcut.takenByAnotherApp(...HOTKEY_CANDIDATES.filter((candidate) => !free.includes(candidate)));
    expect(hotkey.register('CommandOrControl+Shift+Space').alternatives).toEqual(free);
  });

  it('does not offer a candidate the system rejects as malformed', () => {
    const { shortcut, hotkey } = setup();
    shortcut.takenByAnotherApp('CommandOrControl+Shift+Space');
    shortcut.rejectsAsMalformed('CommandOrControl+Alt+Space');
    expect(hotkey.register('CommandOrControl+Shift+Space').alternatives).toEqual(['Alt+Shift+Space', 'CommandOrControl+Shift+K', 'CommandOrControl+Alt+K']);
  });

  it('includes the platform note in the failure message', () => {
    const { shortcut, hotkey } = setup({ platformNote: 'Wayland sessions do not allow global shortcuts.' });
    shortcut.takenByAnotherApp('Alt+Shift+Space');
    expect(hotkey.register('Alt+Shift+Space').message).toContain('Wayland sessions do not allow global shortcuts.');
  });

  it('leaves the platform note out of a successful registration', () => {
    const { hotkey } = setup({ platformNote: 'Wayland sessions do not allow global shortcuts.' });
    expect(hotkey.register('Alt+Shift+Space').message).toBeUndefined();
  });

  it('releases the old shortcut and registers the new one when the setting changes', () => {
    const { shortcut, onPress, hotkey } = setup();
    hotkey.register('CommandOrControl+Shift+Space');
    const status = hotkey.register('Alt+Shift+K');
    expect(status).toMatchObject({ accelerator: 'Alt+Shift+K', state: 'registered' });
    expect(shortcut.unregisterCalls).toEqual(['CommandOrControl+Shift+Space']);
    expect([...shortcut.registered.keys()]).toEqual(['Alt+Shift+K']);
    shortcut.press('Alt+Shift+K');
    expect(onPress).toHaveBeenCalledTimes(1);
  });

  it('does nothing when asked to register the shortcut it already holds, however it is spelled', () => {
    const { shortcut, hotkey, statuses } = setup();
    const first = hotkey.register('CommandOrControl+Shift+Space');
    const again = hotkey.register('shift+CmdOrCtrl+space');
    expect(again).toBe(first);
    expect(shortcut.registerCalls).toEqual(['CommandOrControl+Shift+Space']);
    expect(shortcut.unregisterCalls).toEqual([]);
    expect(statuses).toHaveLength(1);
    expect(shortcut.isRegistered('CommandOrControl+Shift+Space')).toBe(true);
  });

  it('reports a shortcut it cannot parse as failed with the parser’s message and registers nothing', () => {
    const { shortcut, hotkey } = setup();
    const expected = parseAccelerator('Ctrl+Banana');
    if (expected.ok) throw new Error('Ctrl+Banana should not parse');
    const status = hotkey.register('Ctrl+Banana');
    expect(status).toMatchObject({ accelerator: 'Ctrl+Banana', state: 'failed', message: expected.message });
    expect(shortcut.registered.size).toBe(0);
    expect(shortcut.registerCalls).not.toContain('Ctrl+Banana');
    // Probing for alternatives registers and releases; nothing may be left behind.
    expect(status.alternatives).toEqual(HOTKEY_CANDIDATES.slice(0, 3));
  });

  it('reports the held shortcut as registered again after a refused attempt in between', () => {
    const { shortcut, hotkey } = setup();
    hotkey.register('Ctrl+Shift+K');
    hotkey.register('Ctrl+Banana');
    expect(hotkey.register('Ctrl+Shift+K')).toMatchObject({ accelerator: 'Control+Shift+K', state: 'registered' });
    expect(hotkey.status.state).toBe('registered');
    expect(shortcut.isRegistered('Control+Shift+K')).toBe(true);
  });

  it('reports a shortcut the system throws on as failed, with the system’s words, and registers nothing', () => {
    const { shortcut, hotkey } = setup();
    shortcut.rejectsAsMalformed('Control+Alt+F5');
    const status = hotkey.register('Ctrl+Alt+F5');
    expect(status.state).toBe('failed');
    expect(status.message).toContain('did not accept Control+Alt+F5');
    expect(status.message).toContain('Invalid accelerator: Control+Alt+F5');
    expect(status.alternatives).toEqual(HOTKEY_CANDIDATES.slice(0, 3));
    expect(shortcut.registered.size).toBe(0);
  });

  it('registers a shortcut that was taken once the other app lets go of it and it is asked for again', () => {
    const { shortcut, hotkey } = setup();
    shortcut.takenByAnotherApp('Alt+Shift+Space');
    expect(hotkey.register('Alt+Shift+Space').state).toBe('failed');
    shortcut.freedByAnotherApp('Alt+Shift+Space');
    expect(hotkey.register('Alt+Shift+Space').state).toBe('registered');
    expect(shortcut.isRegistered('Alt+Shift+Space')).toBe(true);
  });

  it('unregisters the shortcut on dispose', () => {
    const { shortcut, hotkey } = setup();
    hotkey.register('CommandOrControl+Shift+Space');
    hotkey.dispose();
    expect(shortcut.registered.size).toBe(0);
    expect(shortcut.unregisterCalls).toEqual(['CommandOrControl+Shift+Space']);
  });

  it('unregisters nothing on dispose when nothing was registered', () => {
    const { shortcut, hotkey } = setup();
    shortcut.takenByAnotherApp('CommandOrControl+Shift+Space');
    hotkey.register('CommandOrControl+Shift+Space');
    const before = shortcut.unregisterCalls.length;
    hotkey.dispose();
    expect(shortcut.unregisterCalls).toHaveLength(before);
  });

  it('fires onDidChangeStatus with each status, in order', () => {
    const { shortcut, hotkey, statuses } = setup();
    shortcut.takenByAnotherApp('Alt+Shift+Space');
    const results = [hotkey.register('CommandOrControl+Shift+Space'), hotkey.register('Alt+Shift+Space'), hotkey.register('Shift+K'), hotkey.register('CommandOrControl+Alt+K')];
    expect(statuses).toEqual(results);
    expect(statuses.map((status) => status.state)).toEqual(['registered', 'failed', 'failed', 'registered']);
  });
});
