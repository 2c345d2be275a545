import { describe, expect, it } from 'vitest';
import { trapMove } from './use-focus-trap';

describe('the focus trap’s Tab', () => {
  it('goes from the last control to the first', () => {
    expect(trapMove(3, 4, false)).toEqual({ kind: 'focus', index: 0 });
  });

  it('goes from the first control back to the last with Shift', () => {
    expect(trapMove(0, 4, true)).toEqual({ kind: 'focus', index: 3 });
  });

  it('leaves Tab between controls to the browser', () => {
    expect(trapMove(1, 4, false)).toEqual({ kind: 'browser' });
    expect(trapMove(3, 4, true)).toEqual({ kind: 'browser' });
    expect(trapMove(0, 4, false)).toEqual({ kind: 'browser' });
  });

  it('enters at the first control from the dialog itself, or at the last with Shift', () => {
    expect(trapMove(-1, 4, false)).toEqual({ kind: 'focus', index: 0 });
    expect(trapMove(-1, 4, true)).toEqual({ kind: 'focus', index: 3 });
  });

  it('wraps a single control onto itself', () => {
    expect(trapMove(0, 1, false)).toEqual({ kind: 'focus', index: 0 });
    expect(trapMove(0, 1, true)).toEqual({ kind: 'focus', index: 0 });
  });

  it('keeps focus on the dialog when it has no control', () => {
    expect(trapMove(-1, 0, false)).toEqual({ kind: 'dialog' });
  });
});
