/**
 * The system-wide shortcut: registered through an injected `globalShortcut` (Electron's
 * in the app, a fake in tests), re-registered when the setting changes, released on
 * quit. It never fails silently: a refusal becomes a status with the reason and
 * shortcuts that were free when checked.
 */
import { HOTKEY_CANDIDATES, parseAccelerator } from '../../shared/accelerator';
import type { HotkeyStatus } from '../../shared/ask-types';
import { Emitter, type Disposable, type Event } from '../lifecycle';

/** The part of Electron's `globalShortcut` Flint uses. */
export interface GlobalShortcutLike {
  /** False when the OS or another app holds the shortcut. Throws on a malformed accelerator. */
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export interface GlobalHotkeyOptions {
  shortcut: GlobalShortcutLike;
  onPress: () => void;
  /** Why registration can fail on this system, when known (e.g. a Wayland session). */
  platformNote?: string;
}

export class GlobalHotkey implements Disposable {
  private registered: string | null = null;
  private current: HotkeyStatus = { accelerator: '', state: 'failed', message: 'No shortcut registered yet.', alternatives: [] };
  private readonly _onDidChangeStatus = new Emitter<HotkeyStatus>();
  readonly onDidChangeStatus: Event<HotkeyStatus> = this._onDidChangeStatus.event;

  constructor(private readonly options: GlobalHotkeyOptions) {}

  get status(): HotkeyStatus {
    return this.current;
  }

  /** The shortcut held system-wide now (a refused change keeps the previous one), or null. */
  get heldAccelerator(): string | null {
    return this.registered;
  }

  /**
   * Makes `accelerator` the shortcut. The previous one is released only once the new one
   * is held: a refused change never leaves the user without a working shortcut.
   */
  register(accelerator: string): HotkeyStatus {
    const parsed = parseAccelerator(accelerator);
    if (!parsed.ok) return this.setStatus({ accelerator, state: 'failed', message: parsed.message, alternatives: this.freeAlternatives(null) });
    if (this.registered === parsed.text) {
      // Still held; only the status may be stale (a refused attempt in between).
      return this.current.state === 'registered' && this.current.accelerator === parsed.text
        ? this.current
        : this.setStatus({ accelerator: parsed.text, state: 'registered', alternatives: [] });
    }
    let reason: string;
    try {
      if (this.options.shortcut.register(parsed.text, this.options.onPress)) {
        this.release();
        this.registered = parsed.text;
        return this.setStatus({ accelerator: parsed.text, state: 'registered', alternatives: [] });
      }
      const note = this.options.platformNote ? ` ${this.options.platformNote}` : '';
      reason = `${parsed.text} could not be registered: another app (or the system) already uses it.${note}`;
    } catch (error) {
      reason = `The system did not accept ${parsed.text}: ${error instanceof Error ? error.message : String(error)}`;
    }
    const kept = this.registered ? ` ${this.registered} still opens the ask bar from any app.` : ' Inside Flint it still opens the ask bar.';
    return this.setStatus({ accelerator: parsed.text, state: 'failed', message: `${reason}${kept} Pick another shortcut.`, alternatives: this.freeAlternatives(parsed.text) });
  }

  dispose(): void {
    this.release();
    this._onDidChangeStatus.dispose();
  }

  private release(): void {
    if (this.registered === null) return;
    this.options.shortcut.unregister(this.registered);
    this.registered = null;
  }

  /** Candidates that register right now (each is released again at once). */
  private freeAlternatives(except: string | null): string[] {
    const free: string[] = [];
    for (const candidate of HOTKEY_CANDIDATES) {
      if (candidate === except || candidate === this.registered) continue;
      try {
        if (this.options.shortcut.register(candidate, () => undefined)) {
          this.options.shortcut.unregister(candidate);
          free.push(candidate);
        }
      } catch {
        // Not supported here: not an alternative.
      }
      if (free.length === 3) break;
    }
    return free;
  }

  private setStatus(status: HotkeyStatus): HotkeyStatus {
    this.current = status;
    this._onDidChangeStatus.fire(status);
    return status;
  }
}
