/**
 * Disposables and events for main-process services (after VS Code's lifecycle.ts).
 *
 * Whatever holds a resource (watcher, timer, socket, listener) is a `Disposable`
 * registered with its owner, so closing the owner releases everything it holds.
 */

export interface Disposable {
  dispose(): void;
}

/** Collects disposables and disposes them together, newest first. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'Some resources failed to dispose');
  }
}

export function toDisposable(dispose: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

/** Subscribes a listener; returns the subscription. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/** The private half of an event pair: `private readonly _onDidX = new Emitter<T>()`. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  /** The public half, safe to hand out. */
  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
