/**
 * A conflicting hunk's neighbour: the user's text as the file holds it now, where the
 * hunk wanted to go, so the two can be read side by side before deciding (the user's
 * text always wins; the hunk can only be rejected, or asked for again).
 */
import { useEffect, useState } from 'react';
import { flint } from '../../lib/flint';
import { splitLines } from '../review/review-doc';

/** Lines shown around the hunk's old place: its own length, plus this many either side. */
const MARGIN = 2;

export interface ConflictTextProps {
  path: string;
  anchorLine: number;
  /** How many lines the hunk expected to find. */
  oldCount: number;
}

export function ConflictText({ path, anchorLine, oldCount }: ConflictTextProps) {
  const [shown, setShown] = useState<{ first: number; lines: string[] } | string | null>(null);
  // Read now, and again at each save of the file (the user may still be changing it).
  useEffect(() => {
    let request = 0;
    const read = (): void => {
      const mine = ++request;
      void flint.readFile({ path }).then((result) => {
        if (mine !== request) return;
        if (!result.ok || result.value.kind !== 'text') return setShown(result.ok ? 'The file is not text now.' : result.error.message);
        const lines = splitLines(result.value.text);
        const first = Math.max(0, anchorLine - 1 - MARGIN);
        setShown({ first: first + 1, lines: lines.slice(first, anchorLine - 1 + Math.max(oldCount, 1) + MARGIN) });
      });
    };
    read();
    const stop = flint.on('project:changed', ({ changes }) => {
      if (changes.some((change) => change.type === 'modified' && change.path === path)) read();
    });
    return () => {
      request += 1;
      stop();
    };
  }, [path, anchorLine, oldCount]);
  if (shown === null) return null;
  return (
    <div className="hunk-theirs" aria-label="Your text now">
      {typeof shown === 'string' ? (
        <p className="hunk-theirs-title">{shown}</p>
      ) : (
        <>
          <p className="hunk-theirs-title">
            Your text now, lines {shown.first}–{shown.first + shown.lines.length - 1}
          </p>
          <div className="hunk-lines">
            {shown.lines.map((line, index) => (
              <div key={index} className="hunk-row is-theirs">
                {line || ' '}
              </div>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
