/**
 * The ask bar's shortcut: press the keys to record one, see whether it works
 * system-wide, and pick a free alternative when another app holds it.
 */
import { useState, type KeyboardEvent } from 'react';
import { formatAccelerator, parseAccelerator } from '../../../../shared/accelerator';
import type { HotkeyStatus } from '../../../../shared/ask-types';
import { isMac } from '../../lib/platform';

export interface ShortcutSettingsProps {
  shortcut: string;
  status: HotkeyStatus | null;
  onChange: (shortcut: string) => void;
}

export function ShortcutSettings({ shortcut, status, onChange }: ShortcutSettingsProps) {
  const [recorded, setRecorded] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    // Tab and Escape keep their jobs: leaving the field, closing the dialog.
    if (event.key === 'Tab' || (event.key === 'Escape' && !event.ctrlKey && !event.altKey && !event.metaKey)) return;
    event.preventDefault();
    event.stopPropagation();
    const key = keyFromCode(event.code);
    if (!key) return; // A modifier alone: wait for the key.
    const modifiers = [
      event.ctrlKey && (isMac ? 'Control' : 'CommandOrControl'),
      event.metaKey && (isMac ? 'CommandOrControl' : 'Super'),
      event.altKey && 'Alt',
      event.shiftKey && 'Shift',
    ].filter(Boolean);
    const parsed = parseAccelerator([...modifiers, key].join('+'));
    if (parsed.ok) {
      setRecorded(parsed.text);
      setError(null);
    } else {
      setRecorded(null);
      setError(parsed.message);
    }
  };

  const save = (next: string): void => {
    const parsed = parseAccelerator(next);
    if (!parsed.ok) return setError(parsed.message);
    setRecorded(null);
    setError(null);
    onChange(parsed.text);
  };

  const shown = recorded ?? shortcut;
  return (
    <section className="shortcut-settings" aria-label="Ask bar shortcut">
      <div className="key-form">
        <input
          type="text"
          readOnly
          data-shortcut-recorder
          aria-label="Shortcut (press the keys)"
          value={formatAccelerator(shown, isMac)}
          onKeyDown={onKeyDown}
          placeholder="Press the keys"
        />
        <button type="button" disabled={recorded === null || recorded === shortcut} onClick={() => recorded && save(recorded)}>
          Use this shortcut
        </button>
      </div>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <HotkeyState status={status} onPick={save} />
    </section>
  );
}

function HotkeyState({ status, onPick }: { status: HotkeyStatus | null; onPick: (shortcut: string) => void }) {
  if (!status) return null;
  const label = formatAccelerator(status.accelerator, isMac);
  return (
    <div role="status" aria-label="Shortcut status" className={status.state === 'failed' ? 'test-failed' : status.state === 'registered' ? 'test-ok' : 'test-pending'}>
      {status.state === 'registered' && <p>{label} opens the ask bar from any app.</p>}
      {status.state === 'unavailable' && <p>{status.message ?? `${label} works while Flint has focus.`}</p>}
      {status.state === 'failed' && <p>{status.message ?? `${label} could not be registered.`}</p>}
      {status.alternatives.length > 0 && (
        <p className="shortcut-alternatives">
          Free right now:{' '}
          {status.alternatives.map((alternative) => (
            <button key={alternative} type="button" onClick={() => onPick(alternative)}>
              Use {formatAccelerator(alternative, isMac)}
            </button>
          ))}
        </p>
      )}
    </div>
  );
}

/** The accelerator key for a physical key, or null for a modifier or a key shortcuts cannot use. */
function keyFromCode(code: string): string | null {
  if (/^Key[A-Z]$/.test(code)) return code.slice(3);
  if (/^Digit[0-9]$/.test(code)) return code.slice(5);
  if (/^F([1-9]|1\d|2[0-4])$/.test(code)) return code;
  const named: Record<string, string> = {
    Space: 'Space', Enter: 'Enter', Backspace: 'Backspace', Delete: 'Delete', Insert: 'Insert', Home: 'Home', End: 'End',
    PageUp: 'PageUp', PageDown: 'PageDown', ArrowUp: 'Up', ArrowDown: 'Down', ArrowLeft: 'Left', ArrowRight: 'Right', Escape: 'Escape',
    Comma: ',', Period: '.', Slash: '/', Semicolon: ';', Quote: "'", BracketLeft: '[', BracketRight: ']', Backslash: '\\', Minus: '-', Equal: '=', Backquote: '`',
  };
  return named[code] ?? null;
}
