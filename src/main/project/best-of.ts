/**
 * The first `limit` of a stream of items in an order, without sorting them all: a search
 * over a million paths that matches most of them keeps at most a few times `limit`, and
 * once it has `limit`, an item no better than the worst kept costs one comparison.
 */
export class BestOf<T> {
  private items: T[] = [];
  /** The worst item kept after the last cut; null until `limit` were kept (an item no better is not kept). */
  worst: T | null = null;
  /** How many were offered; more than `limit` means the answer is cut. */
  offered = 0;

  constructor(
    private readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  add(item: T): void {
    this.offered += 1;
    if (this.worst !== null && this.compare(item, this.worst) >= 0) return;
    this.items.push(item);
    // Sorting and cutting at four times the limit keeps each item's cost at O(log limit) on average.
    if (this.items.length >= this.limit * 4 + 16) this.cut();
  }

  /** The best `limit`, best first. */
  take(): T[] {
    this.cut();
    return this.items;
  }

  private cut(): void {
    this.items.sort(this.compare);
    if (this.items.length >= this.limit) {
      this.items.length = this.limit;
      this.worst = this.items[this.limit - 1]!;
    }
  }
}
