import { describe, expect, it } from 'vitest';
import { DEFAULT_HOTKEY, HOTKEY_CANDIDATES, formatAccelerator, matchesKeyPress, parseAccelerator, type Accelerator, type KeyPress } from './accelerator';

function parsed(text: string): { accelerator: Accelerator; text: string } {
  const result = parseAccelerator(text);
  if (!result.ok) throw new Error(`expected ${text} to parse, got: ${result.message}`);
  return result;
}

function refusal(text: string): string {
  const result = parseAccelerator(text);
  if (result.ok) throw new Error(`expected ${text} to be refused, got ${result.text}`);
  return result.message;
}

const press = (code: string, modifiers: Partial<Omit<KeyPress, 'code'>> = {}): KeyPress => ({
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...modifiers,
});

describe('parseAccelerator', () => {
  it('puts modifiers in canonical order whatever order they were typed in', () => {
    expect(parsed('shift+ctrl+space').text).toBe('Control+Shift+Space');
    expect(parsed('Super+Shift+Alt+Ctrl+K').text).toBe('Control+Alt+Shift+Super+K');
  });

  it('spells modifier aliases the way Electron does', () => {
    expect(parsed('CmdOrCtrl+Shift+Space').text).toBe('CommandOrControl+Shift+Space');
    expect(parsed('cmd+option+k').text).toBe('Command+Alt+K');
    expect(parsed('Meta+Shift+K').text).toBe('Shift+Super+K');
  });

  it('returns the modifiers and key separately, as well as the joined text', () => {
    expect(parseAccelerator('ctrl+shift+space')).toEqual({ ok: true, accelerator: { modifiers: ['Control', 'Shift'], key: 'Space' }, text: 'Control+Shift+Space' });
  });

  it('reads a trailing ++ as the plus key', () => {
    expect(parsed('Ctrl++')).toMatchObject({ accelerator: { modifiers: ['Control'], key: 'Plus' }, text: 'Control+Plus' });
    expect(parsed('Ctrl+plus').text).toBe('Control+Plus');
  });

  it('upper-cases letters and canonicalizes named keys', () => {
    expect(parsed('alt+k').accelerator.key).toBe('K');
    expect(parsed('alt+ESC').accelerator.key).toBe('Escape');
    expect(parsed('alt+return').accelerator.key).toBe('Enter');
    expect(parsed('alt+pageup').accelerator.key).toBe('PageUp');
    expect(parsed('alt+f5').accelerator.key).toBe('F5');
  });

  it('keeps punctuation keys as the character', () => {
    expect(parsed('Ctrl+/').accelerator.key).toBe('/');
    expect(parsed('Ctrl+,').accelerator.key).toBe(',');
  });

  it('ignores whitespace around the shortcut and its parts', () => {
    expect(parsed('  ctrl + shift + k  ').text).toBe('Control+Shift+K');
  });

  it('counts a modifier given twice once', () => {
    expect(parsed('Ctrl+Control+K').accelerator.modifiers).toEqual(['Control']);
  });

  it('refuses an empty or blank shortcut', () => {
    expect(refusal('')).toMatch(/Type a shortcut/);
    expect(refusal('   ')).toMatch(/Type a shortcut/);
  });

  it('refuses an empty part between pluses', () => {
    expect(refusal('Ctrl++K')).toMatch(/empty part/);
    expect(refusal('Ctrl+')).toMatch(/empty part/);
  });

  it('refuses an unknown modifier and names it', () => {
    expect(refusal('Hyper+K')).toContain('"Hyper" is not a modifier');
    expect(refusal('K+Space')).toContain('"K" is not a modifier');
  });

  it('refuses an unknown key and names it', () => {
    expect(refusal('Ctrl+Banana')).toContain('"Banana" is not a key');
    expect(refusal('Ctrl+F25')).toContain('"F25" is not a key');
    expect(refusal('Ctrl+F0')).toContain('"F0" is not a key');
  });

  it('refuses a key without a modifier because it would take that key from every app', () => {
    expect(refusal('K')).toMatch(/needs a modifier/);
    expect(refusal('Space')).toMatch(/needs a modifier/);
  });

  it('accepts a function key without a modifier, since apps rarely need it typed', () => {
    expect(parsed('F12').text).toBe('F12');
    expect(parsed('f24').text).toBe('F24');
  });

  it('refuses Shift as the only modifier except with a function key', () => {
    expect(refusal('Shift+K')).toMatch(/Shift alone/);
    expect(refusal('Shift+Space')).toMatch(/Shift alone/);
    expect(parsed('Shift+F5').text).toBe('Shift+F5');
  });

  it('refuses a shortcut longer than 64 characters', () => {
    expect(refusal(`Ctrl+${'Shift+'.repeat(11)}K`)).toMatch(/too long/);
  });

  it('accepts the default and every suggested alternative', () => {
    expect(parsed(DEFAULT_HOTKEY).text).toBe(DEFAULT_HOTKEY);
    for (const candidate of HOTKEY_CANDIDATES) expect(parseAccelerator(candidate).ok, candidate).toBe(true);
  });
});

describe('matchesKeyPress', () => {
  const commandOrControl = parsed('CommandOrControl+Shift+Space').accelerator;

  it('reads CommandOrControl as Ctrl outside macOS', () => {
    expect(matchesKeyPress(commandOrControl, press('Space', { ctrlKey: true, shiftKey: true }), false)).toBe(true);
    expect(matchesKeyPress(commandOrControl, press('Space', { metaKey: true, shiftKey: true }), false)).toBe(false);
  });

  it('reads CommandOrControl as Cmd on macOS', () => {
    expect(matchesKeyPress(commandOrControl, press('Space', { metaKey: true, shiftKey: true }), true)).toBe(true);
    expect(matchesKeyPress(commandOrControl, press('Space', { ctrlKey: true, shiftKey: true }), true)).toBe(false);
  });

  it('reads Control as Ctrl even on macOS', () => {
    const control = parsed('Control+K').accelerator;
    expect(matchesKeyPress(control, press('KeyK', { ctrlKey: true }), true)).toBe(true);
    expect(matchesKeyPress(control, press('KeyK', { metaKey: true }), true)).toBe(false);
  });

  it('reads Super and Command as the meta key on every platform', () => {
    expect(matchesKeyPress(parsed('Super+Alt+K').accelerator, press('KeyK', { metaKey: true, altKey: true }), false)).toBe(true);
    expect(matchesKeyPress(parsed('Command+K').accelerator, press('KeyK', { metaKey: true }), false)).toBe(true);
  });

  it('does not match when an extra modifier is held', () => {
    expect(matchesKeyPress(commandOrControl, press('Space', { ctrlKey: true, shiftKey: true, altKey: true }), false)).toBe(false);
    expect(matchesKeyPress(commandOrControl, press('Space', { ctrlKey: true, shiftKey: true, metaKey: true }), false)).toBe(false);
  });

  it('does not match when a modifier is missing', () => {
    expect(matchesKeyPress(commandOrControl, press('Space', { ctrlKey: true }), false)).toBe(false);
  });

  it('compares letters by physical key code, not by the character typed', () => {
    const accelerator = parsed('ctrl+shift+k').accelerator;
    expect(matchesKeyPress(accelerator, press('KeyK', { ctrlKey: true, shiftKey: true }), false)).toBe(true);
    expect(matchesKeyPress(accelerator, press('k', { ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(matchesKeyPress(accelerator, press('KeyL', { ctrlKey: true, shiftKey: true }), false)).toBe(false);
  });

  it('maps digits, arrows, punctuation and the plus key to their key codes', () => {
    expect(matchesKeyPress(parsed('Alt+1').accelerator, press('Digit1', { altKey: true }), false)).toBe(true);
    expect(matchesKeyPress(parsed('Alt+Up').accelerator, press('ArrowUp', { altKey: true }), false)).toBe(true);
    expect(matchesKeyPress(parsed('Alt+/').accelerator, press('Slash', { altKey: true }), false)).toBe(true);
    expect(matchesKeyPress(parsed('Alt+Esc').accelerator, press('Escape', { altKey: true }), false)).toBe(true);
    expect(matchesKeyPress(parsed('Ctrl++').accelerator, press('Equal', { ctrlKey: true }), false)).toBe(true);
  });

  it('matches a bare function key only with no modifier held', () => {
    const f12 = parsed('F12').accelerator;
    expect(matchesKeyPress(f12, press('F12'), false)).toBe(true);
    expect(matchesKeyPress(f12, press('F12', { ctrlKey: true }), false)).toBe(false);
  });
});

describe('formatAccelerator', () => {
  it('writes modifiers out with + outside macOS', () => {
    expect(formatAccelerator('CommandOrControl+Shift+Space', false)).toBe('Ctrl+Shift+Space');
    expect(formatAccelerator('Super+Alt+K', false)).toBe('Alt+Super+K');
  });

  it('uses macOS symbols with no separator on macOS', () => {
    expect(formatAccelerator('CommandOrControl+Shift+Space', true)).toBe('⌘⇧Space');
    expect(formatAccelerator('Control+Alt+K', true)).toBe('⌃⌥K');
  });

  it('normalizes the shortcut before formatting it', () => {
    expect(formatAccelerator('shift+cmdorctrl+k', false)).toBe('Ctrl+Shift+K');
  });

  it('returns text it cannot parse unchanged', () => {
    expect(formatAccelerator('Hyper+K', false)).toBe('Hyper+K');
    expect(formatAccelerator('', true)).toBe('');
  });
});
