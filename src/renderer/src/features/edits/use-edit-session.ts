/**
 * The renderer's copy of the current edit session: hunk metadata in React state, hunk
 * lines in a mutable store that cards read imperatively (so streaming lines never
 * re-render the pane).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AskFocus } from '../../../../shared/ask-types';
import type { HunkLine } from '../../../../shared/edits/edit-types';
import type { HunkUpdate } from '../../../../shared/edits/hunk-types';
import type { AnswerStatus } from '../../../../shared/ask-types';
import type { AnswerDepth } from '../../../../shared/inference-types';
import { flint } from '../../lib/flint';
import { markPainted } from '../../lib/paint-marks';

export type HunkMeta = Omit<HunkUpdate, 'appendLines'>;

export interface EditSessionView {
  sessionId: string;
  status: AnswerStatus;
  message?: string;
  prose: string;
  order: string[];
  hunks: Record<string, HunkMeta>;
  problems: string[];
}

/** Lines per hunk, plus who is listening for appends. */
export class HunkLineStore {
  private readonly lines = new Map<string, HunkLine[]>();
  private readonly listeners = new Map<string, (lines: readonly HunkLine[]) => void>();

  linesOf(id: string): readonly HunkLine[] {
    return this.lines.get(id) ?? [];
  }

  append(id: string, lines: readonly HunkLine[]): void {
    if (lines.length === 0) return;
    const list = this.lines.get(id) ?? [];
    list.push(...lines);
    this.lines.set(id, list);
    this.listeners.get(id)?.(lines);
  }

  listen(id: string, listener: (lines: readonly HunkLine[]) => void): () => void {
    this.listeners.set(id, listener);
    return () => this.listeners.delete(id);
  }

  clear(): void {
    this.lines.clear();
  }
}

export type EditSessionHandle = ReturnType<typeof useEditSession>;

export function useEditSession(onError: (message: string) => void) {
  const [session, setSession] = useState<EditSessionView | null>(null);
  const storeRef = useRef(new HunkLineStore());
  const sessionIdRef = useRef<string | null>(null);
  /** When the user asked (epoch ms), to mark "ask → final diff painted". */
  const askedAtRef = useRef<number | null>(null);

  useEffect(
    () =>
      flint.on('ask:update', (update) => {
        if (update.sessionId !== sessionIdRef.current) return;
        const now = performance.timeOrigin + performance.now();
        for (const hunk of update.hunks) {
          if (hunk.firstLineAtEpochMs !== undefined && storeRef.current.linesOf(hunk.id).length === 0 && hunk.appendLines.length > 0) {
            performance.mark('flint:hunk-received', { detail: { latencyMs: now - hunk.firstLineAtEpochMs } });
          }
          storeRef.current.append(hunk.id, hunk.appendLines);
        }
        // Ready for the next batch once this one is on screen (see EditSession's flow control).
        requestAnimationFrame(() => void flint.acknowledgeAnswer({ sessionId: update.sessionId }));
        if (update.status === 'complete' && askedAtRef.current !== null) {
          markPainted('flint:edit-painted', askedAtRef.current);
          askedAtRef.current = null;
        }
        setSession((current) => {
          if (!current || current.sessionId !== update.sessionId) return current;
          const hunks = { ...current.hunks };
          const order = [...current.order];
          for (const { appendLines: _lines, ...meta } of update.hunks) {
            if (!hunks[meta.id]) order.push(meta.id);
            hunks[meta.id] = meta;
          }
          return {
            ...current,
            hunks,
            order,
            status: update.status ?? current.status,
            ...(update.message !== undefined ? { message: update.message } : {}),
            prose: current.prose + (update.prose ?? ''),
            problems: update.problems ? [...current.problems, ...update.problems] : current.problems,
          };
        });
      }),
    [],
  );

  const start = useCallback(
    async (prompt: string, depth: AnswerDepth, scope?: { focus: AskFocus; path: string | null }): Promise<boolean> => {
      const keypressEpochMs = performance.timeOrigin + performance.now();
      const running = sessionIdRef.current !== null && session?.status === 'streaming';
      if (running) {
        // Typing while it streams steers the same session.
        const result = await flint.redirectAnswer({ sessionId: sessionIdRef.current!, prompt, keypressEpochMs });
        if (!result.ok) onError(result.error.message);
        return result.ok;
      }
      storeRef.current.clear();
      askedAtRef.current = keypressEpochMs;
      // The file the bar named, not whatever is current by the time this arrives.
      const result = await flint.askModel({
        prompt,
        depth,
        keypressEpochMs,
        ...(scope ? { focus: scope.focus } : {}),
        ...(scope?.path ? { paths: [scope.path] } : {}),
      });
      if (!result.ok) {
        onError(result.error.message);
        return false;
      }
      sessionIdRef.current = result.value.sessionId;
      setSession({ sessionId: result.value.sessionId, status: 'streaming', prose: '', order: [], hunks: {}, problems: [] });
      return true;
    },
    [onError, session?.status],
  );

  const call = useCallback(
    async (operation: () => Promise<{ ok: boolean; error?: { message: string } } & object>) => {
      const result = await operation();
      if (!result.ok && 'error' in result && result.error) onError(result.error.message);
    },
    [onError],
  );

  const id = session?.sessionId ?? '';
  // Stable across frames (they read the session id from a ref), so memoized cards stay put.
  const accept = useCallback((hunkId: string) => void call(() => flint.acceptHunk({ sessionId: sessionIdRef.current ?? '', hunkId })), [call]);
  const reject = useCallback((hunkId: string) => void call(() => flint.rejectHunk({ sessionId: sessionIdRef.current ?? '', hunkId })), [call]);
  return {
    session,
    lines: storeRef.current,
    start,
    stop: () => call(() => flint.stopAnswer({ sessionId: id })),
    accept,
    reject,
    acceptAll: () => call(() => flint.acceptAllHunks({ sessionId: id })),
    rejectAll: () => call(() => flint.rejectAllHunks({ sessionId: id })),
  };
}
