/**
 * Hunk updates as main sends them, for tests of what carries them to the renderer.
 */
import type { HunkLine } from '../../src/shared/edits/edit-types';
import type { HunkState, HunkUpdate } from '../../src/shared/edits/hunk-types';

/** Added lines with these texts. */
export const added = (...texts: string[]): HunkLine[] => texts.map((text) => ({ kind: 'add', text }));

export function hunkUpdate(id: string, appendLines: HunkLine[], state: HunkState = 'streaming', extra: Partial<HunkUpdate> = {}): HunkUpdate {
  return { id, turn: 1, number: 1, fileIndex: 0, path: 'src/a.ts', operation: 'update', state, appendLines, anchorLine: null, ...extra };
}
