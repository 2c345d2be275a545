/**
 * The tree's filter, answered in main over the whole index (the renderer holds only the
 * folders on screen): files whose path contains the query, case ignored, in path order.
 */
import type { FileMatches, TreeEntry } from '../../shared/project-types';
import { BestOf } from './best-of';

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The first `limit` files (and links) of `entries` whose path contains `query`; ignored ones only if `showIgnored`. */
export function filterFiles(entries: Iterable<TreeEntry>, query: string, showIgnored: boolean, limit: number): FileMatches {
  const needle = query.toLowerCase();
  const best = new BestOf<TreeEntry>(limit, (a, b) => collator.compare(a.path, b.path));
  for (const entry of entries) {
    if (entry.kind === 'directory' || (entry.ignored && !showIgnored)) continue;
    if (entry.path.toLowerCase().includes(needle)) best.add(entry);
  }
  return { entries: best.take(), more: best.offered > limit, indexing: false };
}
