import { describe, expect, it } from 'vitest';
import type { AskBarKeyAction } from '../ask-bar/ask-bar-keys';
import { reviewKeyLabels, type ReviewKeyAction } from '../review/review-keys';
import { KEY_PLACES, keyTable } from './key-table';

// Records rather than arrays: the compiler insists on every member of the unions.
const REVIEW_ACTIONS: Record<ReviewKeyAction, true> = { accept: true, reject: true, next: true, previous: true, 'accept-all': true, 'reject-all': true, undo: true, redo: true, shortcuts: true };
const ASK_ACTIONS: Record<AskBarKeyAction, true> = { stop: true, close: true, 'ask-fast': true, 'ask-deep': true, 'toggle-focus': true, 'switch-file': true, 'toggle-subject': true, queue: true, 'toggle-new': true };

describe('keyTable', () => {
  const table = keyTable({ isMac: false, askShortcut: 'Ctrl+Shift+Space', systemWide: true });
  const ids = new Set(table.map((row) => row.id));

  it('lists every review key and every ask bar key, each once', () => {
    for (const action of Object.keys(REVIEW_ACTIONS)) expect(ids, action).toContain(`review:${action}`);
    for (const action of Object.keys(ASK_ACTIONS)) expect(ids, action).toContain(`ask:${action}`);
    expect(ids.size).toBe(table.length);
  });

  it('writes the review keys as the buttons do, with the shortcut from Settings and Ctrl+,', () => {
    const labels = reviewKeyLabels(false);
    expect(table.find((row) => row.id === 'review:undo')?.keys[0]).toBe(labels.undo);
    expect(table.find((row) => row.id === 'app:ask')?.keys).toEqual(['Ctrl+Shift+Space']);
    expect(table.find((row) => row.id === 'app:settings')?.keys).toEqual(['Ctrl+,']);
  });

  it('says how to ask from other apps where the shortcut is not system-wide', () => {
    const local = keyTable({ isMac: true, askShortcut: '⌘⇧Space', systemWide: false });
    expect(local.find((row) => row.id === 'app:ask')?.what).toContain('flint --ask');
    expect(local.find((row) => row.id === 'app:settings')?.keys).toEqual(['⌘,']);
  });

  it('puts every key under a place the sheet lists', () => {
    for (const row of table) expect(KEY_PLACES).toContain(row.where);
  });
});
