import { describe, expect, it } from 'vitest';
import { askBarKeyAction, type AskBarKeyPress, type AskBarKeyState } from './ask-bar-keys';

const press = (key: string, extra: Partial<AskBarKeyPress> = {}): AskBarKeyPress => ({
  key,
  code: key.length === 1 ? `Key${key.toUpperCase()}` : key,
  altKey: false,
  shiftKey: false,
  isInInput: true,
  ...extra,
});
const idle: AskBarKeyState = { isStreaming: false, isStopSent: false, hasNarrowFocus: true };
const streaming: AskBarKeyState = { ...idle, isStreaming: true };

describe('askBarKeyAction', () => {
  it('Esc stops a streaming answer once, then closes; with nothing streaming it closes', () => {
    expect(askBarKeyAction(press('Escape'), streaming)).toBe('stop');
    expect(askBarKeyAction(press('Escape'), { ...streaming, isStopSent: true })).toBe('close');
    expect(askBarKeyAction(press('Escape'), idle)).toBe('close');
    expect(askBarKeyAction(press('Escape', { isInInput: false }), idle)).toBe('close');
  });

  it('Enter in the input asks, Alt+Enter asks the deeper model, Shift+Enter is left to the input', () => {
    expect(askBarKeyAction(press('Enter'), idle)).toBe('ask-fast');
    expect(askBarKeyAction(press('Enter', { altKey: true }), streaming)).toBe('ask-deep');
    expect(askBarKeyAction(press('Enter', { shiftKey: true }), idle)).toBeNull();
  });

  it('Enter on a button in the bar is the button’s', () => {
    expect(askBarKeyAction(press('Enter', { isInInput: false }), idle)).toBeNull();
  });

  it('Alt+W (by physical key) switches the focus only when there is a recent change', () => {
    expect(askBarKeyAction(press('∑', { code: 'KeyW', altKey: true }), idle)).toBe('toggle-focus');
    expect(askBarKeyAction(press('w', { altKey: true }), { ...idle, hasNarrowFocus: false })).toBeNull();
    expect(askBarKeyAction(press('w'), idle)).toBeNull();
  });

  it('Tab queues a typed message while an answer streams; otherwise Tab moves focus as usual', () => {
    expect(askBarKeyAction(press('Tab'), { ...streaming, hasDraft: true })).toBe('queue');
    expect(askBarKeyAction(press('Tab'), { ...streaming, hasDraft: false })).toBeNull();
    expect(askBarKeyAction(press('Tab'), { ...idle, hasDraft: true })).toBeNull();
    expect(askBarKeyAction(press('Tab', { shiftKey: true }), { ...streaming, hasDraft: true })).toBeNull();
    expect(askBarKeyAction(press('Tab', { isInInput: false }), { ...streaming, hasDraft: true })).toBeNull();
  });

  it('Alt+N switches between a follow-up and a new conversation, only with one on screen and nothing streaming', () => {
    expect(askBarKeyAction(press('n', { altKey: true }), { ...idle, canFollowUp: true })).toBe('toggle-new');
    expect(askBarKeyAction(press('n', { altKey: true }), { ...idle, canFollowUp: false })).toBeNull();
    expect(askBarKeyAction(press('n', { altKey: true }), { ...streaming, canFollowUp: true })).toBeNull();
  });

  it('Alt+P (by physical key) switches between the current file and the project, not while an answer streams', () => {
    expect(askBarKeyAction(press('π', { code: 'KeyP', altKey: true }), idle)).toBe('toggle-subject');
    expect(askBarKeyAction(press('p', { code: 'KeyP', altKey: true }), streaming)).toBeNull();
    expect(askBarKeyAction(press('p', { code: 'KeyP' }), idle)).toBeNull();
  });

  it('leaves other keys alone', () => {
    for (const key of ['a', 'A', 'ArrowUp', 'Tab', ' ']) expect(askBarKeyAction(press(key), streaming)).toBeNull();
  });
  it('switches the file with Alt+S only when there is another one, and not while an answer streams', () => {
    expect(askBarKeyAction(press('s', { altKey: true }), { ...idle, hasOtherFile: true })).toBe('switch-file');
    expect(askBarKeyAction(press('s', { altKey: true }), idle)).toBeNull();
    expect(askBarKeyAction(press('s', { altKey: true }), { ...idle, hasOtherFile: true, isStreaming: true })).toBeNull();
  });
});
