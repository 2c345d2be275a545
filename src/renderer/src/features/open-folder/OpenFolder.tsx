/**
 * The welcome screen: open a folder (native dialog or a typed path) or one from Recent.
 */
import { flint } from '../../lib/flint';
import { FolderPathForm } from './FolderPathForm';

export interface OpenFolderProps {
  canChooseFolder: boolean;
  recent: readonly string[];
  openFolder: (path: string) => Promise<boolean>;
  chooseFolder: () => void;
  onError: (message: string) => void;
}

export function OpenFolder({ canChooseFolder, recent, openFolder, chooseFolder, onError }: OpenFolderProps) {
  return (
    <main className="open-folder">
      <h1>Flint</h1>
      <p className="lead">Open a project folder. Flint watches it while you keep working in your own editor.</p>
      {canChooseFolder && (
        <button type="button" className="primary" onClick={chooseFolder}>
          Open Folder…
        </button>
      )}
      <FolderPathForm openFolder={openFolder} onError={onError} autoFocus={!canChooseFolder} />
      {recent.length > 0 && (
        <section aria-label="Recent folders" className="recent">
          <h2>Recent</h2>
          <ul>
            {recent.map((folder) => (
              <li key={folder}>
                <button type="button" className="link" onClick={() => void openFolder(folder)}>
                  {folder}
                </button>
                <button
                  type="button"
                  className="icon"
                  aria-label={`Remove ${folder} from Recent`}
                  title="Remove from Recent"
                  onClick={() => void flint.removeRecent({ path: folder })}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
