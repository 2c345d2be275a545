/**
 * Trims runs of one character, by hand: `/c+$/` is quadratic on a long run of `c` that
 * does not reach the end (the engine retries from each character of the run).
 */

/** `text` without the run of `character` at its end. */
export function trimEndCharacter(text: string, character: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === character) end -= 1;
  return text.slice(0, end);
}

/** `text` without the runs of `character` at its start and end. */
export function trimCharacter(text: string, character: string): string {
  let start = 0;
  while (start < text.length && text[start] === character) start += 1;
  return trimEndCharacter(text.slice(start), character);
}
