/**
 * Answers that stop at a scripted point until the test lets them go on (a rule's
 * `holdAfter`): the test sees the screen with the answer cut exactly there — a path line
 * before its SEARCH, the first words of a line — whatever the machine's speed.
 */
import type { PaceOptions } from './pacer';
import type { SimRule } from './sim-script';

export class StreamHolds {
  private released = Promise.withResolvers<void>();
  private reached = Promise.withResolvers<void>();

  /** Where an answer of `tokens` holds under `rule`: after the token that completes its `holdAfter` text. */
  holdFor(rule: SimRule | undefined, tokens: readonly string[]): PaceOptions['hold'] {
    if (!rule?.holdAfter) return undefined;
    let text = '';
    for (let index = 0; index < tokens.length; index += 1) {
      text += tokens[index];
      if (!text.includes(rule.holdAfter)) continue;
      return { afterToken: index, reached: () => this.reached.resolve(), until: this.released.promise };
    }
    return undefined;
  }

  /** Resolves when an answer has reached its hold (everything before it sent). */
  whenHeld(): Promise<void> {
    return this.reached.promise;
  }

  /** Lets held answers go on; a later hold waits for the next release. */
  release(): void {
    this.released.resolve();
    this.released = Promise.withResolvers<void>();
    this.reached = Promise.withResolvers<void>();
  }
}
