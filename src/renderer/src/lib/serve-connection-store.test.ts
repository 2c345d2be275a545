import { describe, expect, it } from 'vitest';
import { createServeConnectionStore } from './serve-connection-store';

describe('the serve connection store', () => {
  it('holds nothing until the bridge publishes, as in Electron', () => {
    expect(createServeConnectionStore().current()).toBeNull();
  });

  it('tells its listeners of a change, but not of a repeat of what is shown already', () => {
    const store = createServeConnectionStore();
    let changes = 0;
    const unsubscribe = store.onDidChange(() => changes++);
    store.set({ state: 'reconnecting', message: 'Lost it' });
    store.set({ state: 'reconnecting', message: 'Lost it' });
    store.set({ state: 'reconnecting', message: 'Lost it' });
    expect(changes).toBe(1);
    store.set({ state: 'connected' });
    expect(changes).toBe(2);
    expect(store.current()).toEqual({ state: 'connected' });
    unsubscribe();
    store.set({ state: 'reconnecting', message: 'Lost it again' });
    expect(changes).toBe(2);
  });
});
