/**
 * The prose tail at scale: random answers of markers, paths, fences and prose, split at
 * random: prose is never taken back, the tail never shows a marker and ends empty, and the
 * prose is the same however the answer was split. Bounded in `npm test`, full in `npm run soak`.
 */
import { describe, expect, it } from 'vitest';
import * as fixtures from '../../../test/fixtures/edit-answers';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { MARKER_LINE, stream } from '../../../test/helpers/prose-screen';

describe('EditStreamParser: the prose tail, randomized', () => {
  it('never takes back prose, ends with no tail and the same prose however the answer is split; the tail never shows a marker', () => {
    const random = seededRandom(baseSeed(2211));
    const sources = Object.values(fixtures.ALL_FIXTURES);
    const pieces = ['<<<<<<< SEARCH\n', '=======\n', '>>>>>>> REPLACE\n', '*** Begin Patch\n', '*** Update File: a.ts\n', '```ts\n', '```\n', 'src/a.ts\n', 'Some prose ', '\n', '\n\n', ' ', '+x\n', '-y\n', '@@\n', '*** End Patch\n', '**bold**'];
    for (let trial = 0; trial < trialCount(400, 20_000); trial += 1) {
      const text =
        trial % 2 === 0
          ? Array.from({ length: 1 + Math.floor(random() * 30) }, () => pieces[Math.floor(random() * pieces.length)]).join('')
          : sources[trial % sources.length]!;
      const truncated = random() < 0.3;
      const whole = stream(text, [text.length || 1], () => undefined, truncated);
      const sizes = Array.from({ length: 7 }, () => 1 + Math.floor(random() * 9));
      const split = stream(
        text,
        sizes,
        (screen) => {
          expect(whole.lines.startsWith(screen.lines), JSON.stringify({ text, sizes })).toBe(true);
          for (const line of screen.tail.split('\n')) expect(line, JSON.stringify({ text, sizes })).not.toMatch(MARKER_LINE);
        },
        truncated,
      );
      expect(split.lines, JSON.stringify({ text, sizes })).toBe(whole.lines);
      expect(split.tail).toBe('');
    }
  });

});
