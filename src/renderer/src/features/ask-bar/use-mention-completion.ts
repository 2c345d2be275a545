/**
 * The `@` completion in the ask bar's input: which mention the caret is in, the files
 * offered for it, the active one, and the keys while the list is open — ↑/↓ move,
 * Enter or Tab complete, Esc dismisses the list (not the bar). The input keeps focus
 * throughout; the list is announced through aria-activedescendant.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type Dispatch, type KeyboardEvent, type RefObject, type SetStateAction, type SyntheticEvent } from 'react';
import { completeMention, mentionAtCaret } from '../../../../shared/mentions';
import type { TreeModel } from '../tree/tree-model';
import { mentionableFiles, rankPaths } from './mention-match';

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

export function useMentionCompletion(draft: string, setDraft: Dispatch<SetStateAction<string>>, inputRef: RefObject<HTMLTextAreaElement | null>, files: () => readonly string[]): MentionCompletionHandle {
  const [caret, setCaret] = useState(draft.length);
  const [active, setActive] = useState(0);
  /** The mention and query (`start:query`) whose list the user dismissed with Esc: typing on opens it again. */
  const [dismissed, setDismissed] = useState<string | null>(null);
  const pendingCaret = useRef<number | null>(null);
  const id = useId();
  const at = mentionAtCaret(draft, Math.min(caret, draft.length));
  const query = at?.query ?? null;
  // Ranked only while a mention is typed: the tree can hold 50,000 files.
  const options = useMemo(() => (query === null ? [] : rankPaths(files(), query)), [query, files]);
  const isOpen = at !== null && `${at.start}:${at.query}` !== dismissed && options.length > 0;
  useEffect(() => setActive(0), [query]);
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

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!isOpen || event.altKey || event.ctrlKey || event.metaKey) return false;
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

/** The files `@` can name, from the tree the renderer already has: listed again only when the tree changed. */
export function useMentionFiles(tree: TreeModel): () => readonly string[] {
  const cache = useRef<{ version: number; files: string[] }>({ version: -1, files: [] });
  return useCallback(() => {
    if (cache.current.version !== tree.version) cache.current = { version: tree.version, files: mentionableFiles(tree.allEntries()) };
    return cache.current.files;
  }, [tree]);
}
