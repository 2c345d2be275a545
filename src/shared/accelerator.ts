/**
 * Keyboard shortcuts in Electron's accelerator syntax (`CommandOrControl+Shift+Space`):
 * parsed and checked once, for main's global registration and the renderer's in-app
 * shortcut alike, so both shells agree on what a setting means.
 */

export type Modifier = 'CommandOrControl' | 'Command' | 'Control' | 'Alt' | 'Shift' | 'Super';

export interface Accelerator {
  modifiers: Modifier[];
  /** The key's canonical name (`Space`, `K`, `F5`, `Up`, `/`). */
  key: string;
}

export const DEFAULT_HOTKEY = 'CommandOrControl+Shift+Space';

/** Offered when the chosen shortcut is taken, most memorable first. */
export const HOTKEY_CANDIDATES = [
  'CommandOrControl+Shift+Space',
  'CommandOrControl+Alt+Space',
  'Alt+Shift+Space',
  'CommandOrControl+Shift+K',
  'CommandOrControl+Alt+K',
  'Super+Shift+Space',
  'CommandOrControl+Shift+F12',
] as const;

const MODIFIER_ALIASES: Record<string, Modifier> = {
  commandorcontrol: 'CommandOrControl',
  cmdorctrl: 'CommandOrControl',
  command: 'Command',
  cmd: 'Command',
  control: 'Control',
  ctrl: 'Control',
  alt: 'Alt',
  option: 'Alt',
  shift: 'Shift',
  super: 'Super',
  meta: 'Super',
};
const MODIFIER_ORDER: Modifier[] = ['CommandOrControl', 'Command', 'Control', 'Alt', 'Shift', 'Super'];

/** Named keys, by lower-case spelling, with their KeyboardEvent.code. */
const NAMED_KEYS: Record<string, { name: string; code: string }> = {
  space: { name: 'Space', code: 'Space' },
  tab: { name: 'Tab', code: 'Tab' },
  enter: { name: 'Enter', code: 'Enter' },
  return: { name: 'Enter', code: 'Enter' },
  backspace: { name: 'Backspace', code: 'Backspace' },
  delete: { name: 'Delete', code: 'Delete' },
  insert: { name: 'Insert', code: 'Insert' },
  home: { name: 'Home', code: 'Home' },
  end: { name: 'End', code: 'End' },
  pageup: { name: 'PageUp', code: 'PageUp' },
  pagedown: { name: 'PageDown', code: 'PageDown' },
  up: { name: 'Up', code: 'ArrowUp' },
  down: { name: 'Down', code: 'ArrowDown' },
  left: { name: 'Left', code: 'ArrowLeft' },
  right: { name: 'Right', code: 'ArrowRight' },
  esc: { name: 'Escape', code: 'Escape' },
  escape: { name: 'Escape', code: 'Escape' },
};
const PUNCTUATION_CODES: Record<string, string> = {
  ',': 'Comma',
  '.': 'Period',
  '/': 'Slash',
  ';': 'Semicolon',
  "'": 'Quote',
  '[': 'BracketLeft',
  ']': 'BracketRight',
  '\\': 'Backslash',
  '-': 'Minus',
  '=': 'Equal',
  '`': 'Backquote',
};

export type ParsedAccelerator = { ok: true; accelerator: Accelerator; text: string } | { ok: false; message: string };

/** Parses and normalizes a shortcut; the message says what is wrong in words. */
export function parseAccelerator(input: string): ParsedAccelerator {
  const text = input.trim();
  if (text.length === 0) return { ok: false, message: 'Type a shortcut, like Ctrl+Shift+Space.' };
  if (text.length > 64) return { ok: false, message: 'That shortcut is too long.' };
  // "Ctrl++" means Ctrl and the plus key.
  const parts = text.replace(/\+\+$/, '+Plus').split('+').map((part) => part.trim());
  if (parts.some((part) => part.length === 0)) return { ok: false, message: `"${text}" has an empty part; separate keys with +.` };
  const modifiers = new Set<Modifier>();
  for (const part of parts.slice(0, -1)) {
    const modifier = MODIFIER_ALIASES[part.toLowerCase()];
    if (!modifier) return { ok: false, message: `"${part}" is not a modifier (use Ctrl, Alt, Shift, Cmd, CmdOrCtrl or Super).` };
    modifiers.add(modifier);
  }
  const key = keyName(parts.at(-1)!);
  if (!key) return { ok: false, message: `"${parts.at(-1)}" is not a key Flint can use in a shortcut.` };
  const isFunctionKey = /^F\d+$/.test(key);
  if (modifiers.size === 0 && !isFunctionKey) {
    return { ok: false, message: 'A system-wide shortcut needs a modifier (Ctrl, Alt, Shift, Cmd or Super), or it would take that key from every app.' };
  }
  if (modifiers.size === 1 && modifiers.has('Shift') && !isFunctionKey) {
    return { ok: false, message: 'Shift alone would take a character from every app; add Ctrl, Alt, Cmd or Super.' };
  }
  const ordered = MODIFIER_ORDER.filter((modifier) => modifiers.has(modifier));
  return { ok: true, accelerator: { modifiers: ordered, key }, text: [...ordered, key].join('+') };
}

function keyName(part: string): string | null {
  if (/^[a-z0-9]$/i.test(part)) return part.toUpperCase();
  if (/^f([1-9]|1\d|2[0-4])$/i.test(part)) return part.toUpperCase();
  if (part.toLowerCase() === 'plus') return 'Plus';
  if (part in PUNCTUATION_CODES) return part;
  return NAMED_KEYS[part.toLowerCase()]?.name ?? null;
}

function keyCode(key: string): string {
  if (/^[A-Z]$/.test(key)) return `Key${key}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  if (/^F\d+$/.test(key)) return key;
  if (key === 'Plus') return 'Equal';
  return PUNCTUATION_CODES[key] ?? NAMED_KEYS[key.toLowerCase()]?.code ?? key;
}

/** The subset of KeyboardEvent the in-app shortcut reads. */
export interface KeyPress {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/**
 * Whether a key press is this shortcut. Physical keys (`code`) are compared, so Shift
 * or a keyboard layout does not change which key is meant.
 */
export function matchesKeyPress(accelerator: Accelerator, press: KeyPress, isMac: boolean): boolean {
  const wants = new Set(accelerator.modifiers);
  const control = wants.has('Control') || (wants.has('CommandOrControl') && !isMac);
  const meta = wants.has('Command') || wants.has('Super') || (wants.has('CommandOrControl') && isMac);
  return (
    press.code === keyCode(accelerator.key) &&
    press.ctrlKey === control &&
    press.metaKey === meta &&
    press.altKey === wants.has('Alt') &&
    press.shiftKey === wants.has('Shift')
  );
}

/** The shortcut as people write it on this platform: `Ctrl+Shift+Space`, `⌘⇧Space`. */
export function formatAccelerator(text: string, isMac: boolean): string {
  const parsed = parseAccelerator(text);
  if (!parsed.ok) return text;
  const { modifiers, key } = parsed.accelerator;
  const names: Record<Modifier, [string, string]> = {
    CommandOrControl: ['Ctrl', '⌘'],
    Command: ['Cmd', '⌘'],
    Control: ['Ctrl', '⌃'],
    Alt: ['Alt', '⌥'],
    Shift: ['Shift', '⇧'],
    Super: ['Super', '⌘'],
  };
  if (isMac) return modifiers.map((modifier) => names[modifier][1]).join('') + key;
  return [...modifiers.map((modifier) => names[modifier][0]), key].join('+');
}
