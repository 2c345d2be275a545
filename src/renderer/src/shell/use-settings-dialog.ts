/**
 * Whether Settings is open, and its shortcut: Ctrl+, (Cmd+, on macOS), as in most editors.
 */
import { useCallback, useEffect, useState } from 'react';

export interface SettingsDialogHandle {
  isOpen: boolean;
  /** Opened by a way out of "no key" (the welcome screen's step, the ask bar): focus starts in the key field of the provider in use. */
  isAtKey: boolean;
  open: () => void;
  /** Opens Settings with focus in the key field of the provider in use. */
  openAtKey: () => void;
  close: () => void;
}

export function useSettingsDialog(): SettingsDialogHandle {
  const [opened, setOpened] = useState<'closed' | 'open' | 'at-key'>('closed');
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if ((event.ctrlKey || event.metaKey) && event.key === ',') {
        event.preventDefault();
        setOpened((current) => (current === 'closed' ? 'open' : current));
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  const open = useCallback(() => setOpened((current) => (current === 'closed' ? 'open' : current)), []);
  const openAtKey = useCallback(() => setOpened('at-key'), []);
  const close = useCallback(() => setOpened('closed'), []);
  return { isOpen: opened !== 'closed', isAtKey: opened === 'at-key', open, openAtKey, close };
}
