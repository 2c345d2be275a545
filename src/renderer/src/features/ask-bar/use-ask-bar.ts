/**
 * When the ask bar is open and what it is about: opened by the shortcut inside the app
 * (the only way in the serve shell), or by main (the system-wide shortcut, the tray,
 * `flint --ask`). Each opening asks main to prepare: warm the connection, pre-load
 * the current file, and describe the scope.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { matchesKeyPress, parseAccelerator } from '../../../../shared/accelerator';
import type { AskFocus, AskScope, AskSubject } from '../../../../shared/ask-types';
import { parseMentions } from '../../../../shared/mentions';
import { afterNextPaint } from '../../lib/after-paint';
import { flint } from '../../lib/flint';
import { isMac } from '../../lib/platform';
import { preloadMarkdown, useMarkdownPreloadWhenIdle } from '../markdown/LazyMarkdownAnswer';

export interface AskBarHandle {
  isOpen: boolean;
  /** Bumped on every opening, so the bar re-focuses its input even when already open. */
  openCount: number;
  /** When the opening keypress (or main's shortcut) happened, epoch ms: the bar marks its paint from it. */
  openedAtEpochMs: number;
  scope: AskScope | null;
  focus: AskFocus;
  setFocus: (focus: AskFocus) => void;
  /** Switches between the lines just changed (or the user's selection) and the whole file. */
  toggleFocus: () => void;
  /** Makes the other candidate file current (the focused editor's ↔ the last saved or selected). */
  switchFile: () => void;
  /** What the user chose to ask about (main may still make it the project: see `scope.subject`). */
  subject: AskSubject;
  /** Switches between the current file and the project. */
  toggleSubject: () => void;
  open: (sinceEpochMs?: number) => void;
  close: () => void;
  /** The question being typed: kept when the bar closes. */
  draft: string;
  setDraft: Dispatch<SetStateAction<string>>;
}

export function useAskBar(shortcut: string, currentFileAt: number, projectId: number | null): AskBarHandle {
  const [isOpen, setOpen] = useState(false);
  const [openCount, setOpenCount] = useState(0);
  const [openedAtEpochMs, setOpenedAt] = useState(0);
  const [scope, setScope] = useState<AskScope | null>(null);
  const [focus, setFocusState] = useState<AskFocus>('recent-change');
  const [draft, setDraft] = useState('');
  const [subject, setSubject] = useState<AskSubject>('file');
  // What main is asked about besides the focus, current at once (prepare runs from callbacks).
  const mentions = useMemo(() => draftMentions(draft), [draft]);
  const asked = useRef({ subject, mentions });
  asked.current.mentions = mentions;
  /** The user chose the focus in this opening (Alt+W): a selection found later does not take it over. */
  const isFocusChosen = useRef(false);

  const prepare = usePrepare(asked, isFocusChosen, setScope, setFocusState);

  const open = useCallback(
    (sinceEpochMs?: number) => {
      setOpen(true);
      // Not before the bar is painted: compiling the chunk the first time is a long task.
      afterNextPaint(preloadMarkdown);
      setOpenCount((count) => count + 1);
      setOpenedAt(sinceEpochMs ?? performance.timeOrigin + performance.now());
      // A new opening starts from the default focus (the lines selected, else the lines just changed) and the current file.
      isFocusChosen.current = false;
      setFocusState('recent-change');
      setSubject('file');
      asked.current.subject = 'file';
      prepare('recent-change');
    },
    [prepare],
  );
  const close = useCallback(() => setOpen(false), []);
  const setFocus = useCallback(
    (next: AskFocus) => {
      setFocusState(next);
      prepare(next);
    },
    [prepare],
  );
  const toggleFocus = useCallback(() => {
    isFocusChosen.current = true;
    const narrow: AskFocus = scope?.selection ? 'selection' : 'recent-change';
    setFocus(focus === 'whole-file' ? narrow : 'whole-file');
  }, [focus, scope, setFocus]);
  const switchFile = useCallback(() => {
    // The current file changes in main; its event re-prepares the scope (below).
    void flint.switchCurrentFile({});
  }, []);
  const toggleSubject = useCallback(() => {
    const next: AskSubject = asked.current.subject === 'project' ? 'file' : 'project';
    asked.current.subject = next;
    setSubject(next);
    prepare(focus);
  }, [focus, prepare]);

  useBarShortcut(shortcut, open);
  useEffect(() => flint.on('ask:open', ({ atEpochMs }) => open(atEpochMs)), [open]);
  useMarkdownPreloadWhenIdle();

  // A save or selection while the bar is open changes what it is about (refs: opening
  // and focus changes prepare by themselves); so do the files the draft names, once typing pauses.
  const latest = useRef({ isOpen, focus });
  latest.current = { isOpen, focus };
  useEffect(() => {
    if (latest.current.isOpen) prepare(latest.current.focus);
  }, [currentFileAt, projectId, prepare]);
  const mentionKey = mentions.join('\u0001');
  useEffect(() => {
    if (!latest.current.isOpen) return;
    const timer = setTimeout(() => prepare(latest.current.focus), MENTION_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [mentionKey, prepare]);

  return { isOpen, openCount, openedAtEpochMs, scope, focus, setFocus, toggleFocus, switchFile, subject, toggleSubject, open, close, draft, setDraft };
}

/**
 * The focus a prepared scope should have: its selection when the shortcut found one (unless
 * the user chose a focus), and never a selection it no longer has (another file became current).
 */
export function defaultFocus(asked: AskFocus, scope: AskScope, isChosen: boolean): AskFocus {
  if (asked === 'recent-change' && scope.selection && !isChosen) return 'selection';
  if (asked === 'selection' && !scope.selection) return 'recent-change';
  return asked;
}

/**
 * Asks main to prepare the scope for a focus (with the subject and mentions `asked` holds);
 * only the latest request's answer counts. A selection the shortcut found becomes the focus.
 */
function usePrepare(
  asked: RefObject<{ subject: AskSubject; mentions: string[] }>,
  isFocusChosen: RefObject<boolean>,
  setScope: (scope: AskScope | null) => void,
  setFocusState: (focus: AskFocus) => void,
): (focus: AskFocus) => void {
  const request = useRef(0);
  const prepare = useCallback((nextFocus: AskFocus) => {
    const id = ++request.current;
    const { subject: nextSubject, mentions: named } = asked.current;
    void flint.prepareAsk({ focus: nextFocus, ...(nextSubject === 'project' ? { subject: nextSubject } : {}), ...(named.length > 0 ? { mentions: named } : {}) }).then((result) => {
      if (id !== request.current) return;
      if (!result.ok) return setScope(null);
      const next = defaultFocus(nextFocus, result.value, isFocusChosen.current);
      if (next !== nextFocus) {
        // The selection the shortcut found is what the question is about: prepared for it.
        setFocusState(next);
        return prepare(next);
      }
      setScope(result.value);
    });
    // Refs and state setters: stable for the hook's life.
  }, []);
  return prepare;
}

/** How long typing pauses before main is asked about the files the draft names. */
const MENTION_PAUSE_MS = 150;

/** The draft's `@` mentions as typed, for main to resolve (the schema takes at most 50, each a path's length). */
function draftMentions(draft: string): string[] {
  return parseMentions(draft)
    .map((mention) => draft.slice(mention.start, mention.end))
    .filter((mention) => mention.length <= 4096)
    .slice(0, 50);
}

/** The shortcut inside the app. In Electron the system-wide one fires too; opening twice is harmless. */
function useBarShortcut(shortcut: string, open: (sinceEpochMs?: number) => void): void {
  const accelerator = useMemo(() => {
    const parsed = parseAccelerator(shortcut);
    return parsed.ok ? parsed.accelerator : null;
  }, [shortcut]);
  useEffect(() => {
    if (!accelerator) return;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.repeat || !matchesKeyPress(accelerator, event, isMac)) return;
      // Settings' shortcut recorder must be able to record the shortcut itself.
      if (event.target instanceof Element && event.target.closest('[data-shortcut-recorder]')) return;
      event.preventDefault();
      event.stopPropagation();
      open(performance.timeOrigin + event.timeStamp);
    };
    // Capture: the shortcut works whatever has focus, a text field included.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [accelerator, open]);
}
