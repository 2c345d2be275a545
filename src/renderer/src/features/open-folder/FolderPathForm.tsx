/**
 * A typed-path "open folder" form: the serve shell's stand-in for the native dialog.
 */
import { useState, type FormEvent, type RefObject } from 'react';

export interface FolderPathFormProps {
  openFolder: (path: string) => Promise<boolean>;
  onError: (message: string) => void;
  autoFocus?: boolean;
  onDone?: () => void;
  /** The path field, for a way in from elsewhere (the ask bar's Open Folder…) to focus. */
  inputRef?: RefObject<HTMLInputElement | null>;
}

export function FolderPathForm({ openFolder, onError, autoFocus, onDone, inputRef }: FolderPathFormProps) {
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!path.trim()) return onError('Type the path of a folder to open.');
    setBusy(true);
    const opened = await openFolder(path.trim());
    setBusy(false);
    if (opened) onDone?.();
  };

  return (
    <form className="folder-form" onSubmit={(event) => void submit(event)}>
      <label htmlFor="folder-path">Folder path</label>
      <input
        id="folder-path"
        ref={inputRef}
        type="text"
        spellCheck={false}
        autoFocus={autoFocus}
        placeholder="/home/you/project"
        value={path}
        onChange={(event) => setPath(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || !onDone) return;
          // Handled here: Esc leaves the path field and does not also stop a streaming answer.
          event.preventDefault();
          onDone();
        }}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Opening…' : 'Open'}
      </button>
    </form>
  );
}
