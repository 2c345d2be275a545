/**
 * Which lines of a file fit a token budget, grown outwards from the focus so the
 * lines the question is about are always in, with as much around them as fits.
 */

/** A 0-based, end-exclusive span of lines. */
export interface LineSpan {
  start: number;
  end: number;
}

export interface FocusWindow extends LineSpan {
  tokens: number;
  /** Some lines are left out. */
  truncated: boolean;
}

/**
 * The window of `lines` around `focus` whose cost fits `budget`.
 *
 * `cost(line)` is counted only for lines the window reaches, so a 10 MB file costs
 * about as much as the budget, not the file. Without a focus the window starts at the
 * top. A focus larger than the budget keeps its first lines.
 */
export function focusWindow(lines: readonly string[], focus: LineSpan | null, budget: number, cost: (line: string) => number): FocusWindow {
  const anchor = focus ? { start: clamp(focus.start, 0, lines.length), end: clamp(Math.max(focus.end, focus.start + 1), 0, lines.length) } : { start: 0, end: 0 };
  let start = anchor.start;
  let end = anchor.start;
  let tokens = 0;
  // The focus first, in order.
  while (end < anchor.end) {
    const next = cost(lines[end]!);
    if (tokens + next > budget) return { start, end, tokens, truncated: true };
    tokens += next;
    end += 1;
  }
  // Then alternately a line below and a line above, so the focus stays centred.
  let above = start > 0;
  let below = end < lines.length;
  let takeBelow = true;
  while (above || below) {
    const side = below && (takeBelow || !above) ? 'below' : 'above';
    const line = side === 'below' ? lines[end]! : lines[start - 1]!;
    const next = cost(line);
    if (tokens + next > budget) {
      // Stop this side; the other may still have shorter lines that fit.
      if (side === 'below') below = false;
      else above = false;
    } else {
      tokens += next;
      if (side === 'below') end += 1;
      else start -= 1;
      below = below && end < lines.length;
      above = above && start > 0;
    }
    takeBelow = !takeBelow;
  }
  return { start, end, tokens, truncated: start > 0 || end < lines.length };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
