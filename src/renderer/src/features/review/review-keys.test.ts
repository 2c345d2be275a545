import { describe, expect, it } from 'vitest';
import { reviewKeyAction, type KeyTarget, type ReviewKeyPress } from './review-keys';

const press = (key: string, mods: Partial<ReviewKeyPress> = {}): ReviewKeyPress => ({
  key,
  code: key.length === 1 ? `Key${key.toUpperCase()}` : key,
  altKey: false,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});
const anywhere: KeyTarget = { isTyping: false, hasText: false };
const typing: KeyTarget = { isTyping: true, hasText: true };

describe('reviewKeyAction', () => {
  it('accepts with Ctrl+Enter on Linux and Cmd+Enter on a Mac, even while typing', () => {
    expect(reviewKeyAction(press('Enter', { ctrlKey: true }), typing, false)).toBe('accept');
    expect(reviewKeyAction(press('Enter', { metaKey: true }), typing, true)).toBe('accept');
    expect(reviewKeyAction(press('Enter', { ctrlKey: true }), anywhere, true)).toBeNull();
  });

  it('rejects with Ctrl+Backspace, except in a text box with text where it deletes a word', () => {
    expect(reviewKeyAction(press('Backspace', { ctrlKey: true }), anywhere, false)).toBe('reject');
    expect(reviewKeyAction(press('Backspace', { ctrlKey: true }), { isTyping: true, hasText: false }, false)).toBe('reject');
    expect(reviewKeyAction(press('Backspace', { ctrlKey: true }), typing, false)).toBeNull();
  });

  it("takes Continue's Ctrl+Alt+Y / N anywhere, by physical key", () => {
    expect(reviewKeyAction({ ...press('z', { ctrlKey: true, altKey: true }), code: 'KeyY' }, typing, false)).toBe('accept');
    expect(reviewKeyAction({ ...press('ñ', { ctrlKey: true, altKey: true }), code: 'KeyN' }, typing, false)).toBe('reject');
  });

  it('adds Shift for all', () => {
    expect(reviewKeyAction(press('Enter', { ctrlKey: true, shiftKey: true }), typing, false)).toBe('accept-all');
    expect(reviewKeyAction(press('Backspace', { ctrlKey: true, shiftKey: true }), anywhere, false)).toBe('reject-all');
  });

  it('moves between hunks with Alt+arrows and F7', () => {
    expect(reviewKeyAction(press('ArrowDown', { altKey: true }), typing, false)).toBe('next');
    expect(reviewKeyAction(press('ArrowUp', { altKey: true }), anywhere, false)).toBe('previous');
    expect(reviewKeyAction(press('F7'), typing, false)).toBe('next');
    expect(reviewKeyAction(press('F7', { shiftKey: true }), typing, false)).toBe('previous');
    expect(reviewKeyAction(press('ArrowDown'), anywhere, false)).toBeNull();
  });

  it("undoes Flint's write with Ctrl+Alt+Z anywhere, and Ctrl+Z only where it would not undo typing", () => {
    expect(reviewKeyAction({ ...press('z', { ctrlKey: true, altKey: true }) }, typing, false)).toBe('undo');
    expect(reviewKeyAction(press('z', { ctrlKey: true }), anywhere, false)).toBe('undo');
    expect(reviewKeyAction(press('z', { ctrlKey: true }), typing, false)).toBeNull();
    expect(reviewKeyAction(press('z', { ctrlKey: true, shiftKey: true }), typing, false)).toBeNull();
  });

  it('redoes with Shift added to either undo key, and never takes the editor’s own redo from typing', () => {
    expect(reviewKeyAction({ ...press('Z', { ctrlKey: true, altKey: true, shiftKey: true }), code: 'KeyZ' }, typing, false)).toBe('redo');
    expect(reviewKeyAction({ ...press('Z', { ctrlKey: true, shiftKey: true }), code: 'KeyZ' }, anywhere, false)).toBe('redo');
  });

  it('opens the shortcuts with ? outside text boxes, and Ctrl+/ anywhere', () => {
    expect(reviewKeyAction({ ...press('?', { shiftKey: true }), code: 'Slash' }, anywhere, false)).toBe('shortcuts');
    expect(reviewKeyAction({ ...press('?', { shiftKey: true }), code: 'Slash' }, typing, false)).toBeNull();
    expect(reviewKeyAction({ ...press('/', { ctrlKey: true }), code: 'Slash' }, typing, false)).toBe('shortcuts');
  });

  it('leaves plain typing alone', () => {
    for (const key of ['a', 'r', 'Enter', 'Backspace', 'Tab']) expect(reviewKeyAction(press(key), typing, false)).toBeNull();
  });
});
