/**
 * Whether Settings is open, and its shortcut: Ctrl+, (Cmd+, on macOS), as in most editors.
 */
import { useCallback, useEffect, useState } from 'react';

export interface SettingsDialogHandle {
  isOpen: boolean;
  open: () => void;
  close: () => void;
}

export function useSettingsDialog(): SettingsDialogHandle {
  const [isOpen, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if ((event.ctrlKey || event.metaKey) && event.key === ',') {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  const open = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  return { isOpen, open, close };
}
