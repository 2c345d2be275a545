/**
 * The `@` completion in the ask bar's input: which mention the caret is in, the files
 * offered for it (ranked by main over the whole index), the active one, and the keys while
 * the list is open — ↑/↓ move, Enter or Tab complete, Esc dismisses the list (not the bar).
 * Enter or Tab typed before the files for the newest query came completes with its best
 * one when they come. The input keeps focus throughout; the list is announced through
 * aria-activedescendant.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type Dispatch, type KeyboardEvent, type RefObject, type SetStateAction, type SyntheticEvent } from 'react';
import { completeMention, mentionAtCaret } from '../../../../shared/mentions';
import { flint } from '../../lib/flint';

export interface MentionCompletionHandle {
  isOpen: boolean;
  /** The mention being completed (`@src/a`), while the list is open: main's verdict on it is not final yet. */
  typing: string | null;
  options: string[];
  active: number;
  listId: string;
  optionId: (index: number) => string;
  pick: (path: string) => void;
  setActive: (index: number) => void;
  /** The input's keydown: true when the completion took the key (the bar must not act on it). */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** The input's caret moved (typing, clicks, arrow keys). */
  onCaret: (event: SyntheticEvent<HTMLTextAreaElement>) => void;
}

export function useMentionCompletion(draft: string, setDraft: Dispatch<SetStateAction<string>>, inputRef: RefObject<HTMLTextAreaElement | null>): MentionCompletionHandle {
  const [caret, setCaret] = useState(draft.length);
  const [active, setActive] = useState(0);
  /** The mention and query (`start:query`) whose list the user dismissed with Esc: typing on opens it again. */
  const [dismissed, setDismissed] = useState<string | null>(null);
  const pendingCaret = useRef<number | null>(null);
  const id = useId();
  const at = mentionAtCaret(draft, Math.min(caret, draft.length));
  const query = at?.query ?? null;
  const suggestions = useSuggestions(query);
  // The last list stays while the next query's is on its way (main answers within a frame or so).
  const options = query === null || suggestions === null ? [] : suggestions.paths;
  const isOpen = at !== null && `${at.start}:${at.query}` !== dismissed && options.length > 0;
  /** The query whose Enter or Tab came before its files. */
  const pickWhenIn = useRef<string | null>(null);
  useEffect(() => {
    setActive(0);
    // Typing on takes back an Enter or Tab that waited for an older query's files.
    pickWhenIn.current = null;
  }, [query]);
  useLayoutEffect(() => {
    // After a completion: the caret goes after the inserted path, once React has put it in.
    if (pendingCaret.current === null || !inputRef.current) return;
    inputRef.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    setCaret(pendingCaret.current);
    pendingCaret.current = null;
  }, [draft, inputRef]);

  const pick = useCallback(
    (path: string) => {
      if (!at) return;
      const next = completeMention(draft, at.start, at.end, path);
      pendingCaret.current = next.caret;
      setDraft(next.text);
      inputRef.current?.focus();
    },
    [at, draft, setDraft, inputRef],
  );

  useEffect(() => {
    if (suggestions === null || pickWhenIn.current !== suggestions.query) return;
    pickWhenIn.current = null;
    // The one the user moved to while the list was on its way (↓ works on the last list).
    if (suggestions.query === query && suggestions.paths.length > 0) pick(suggestions.paths[Math.min(active, suggestions.paths.length - 1)]!);
  }, [suggestions, query, active, pick]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    const waiting = at !== null && `${at.start}:${at.query}` !== dismissed && suggestions?.query !== query;
    if (waiting && (event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      pickWhenIn.current = query;
      return true;
    }
    if (!isOpen) return false;
    switch (event.key) {
      case 'ArrowDown':
        setActive((index) => (index + 1) % options.length);
        return true;
      case 'ArrowUp':
        setActive((index) => (index - 1 + options.length) % options.length);
        return true;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) return false;
        pick(options[Math.min(active, options.length - 1)]!);
        return true;
      case 'Escape':
        setDismissed(`${at!.start}:${at!.query}`);
        return true;
      default:
        return false;
    }
  };

  const onCaret = (event: SyntheticEvent<HTMLTextAreaElement>) => setCaret(event.currentTarget.selectionStart);
  return { isOpen, typing: isOpen ? `@${at.query}` : null, options, active, listId: `${id}-mentions`, optionId: (index) => `${id}-mention-${index}`, pick, setActive, onKeyDown, onCaret };
}

/** Main's files for the mention being typed: the newest answer, with the query it is for. */
function useSuggestions(query: string | null): { query: string; paths: string[] } | null {
  const [answer, setAnswer] = useState<{ query: string; paths: string[] } | null>(null);
  useEffect(() => {
    if (query === null) return;
    let live = true;
    void flint.suggestFiles({ query }).then((result) => live && setAnswer({ query, paths: result.ok ? result.value : [] }));
    return () => {
      live = false;
    };
  }, [query]);
  return answer;
}
