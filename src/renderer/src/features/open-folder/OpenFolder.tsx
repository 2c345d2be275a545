/**
 * The welcome screen: the three steps to a first answer (WelcomeSteps.tsx), the first one's
 * controls here: open a folder (native dialog or a typed path) or one from Recent.
 */
import type { RefObject } from 'react';
import { flint } from '../../lib/flint';
import { FolderPathForm } from './FolderPathForm';
import { WelcomeSteps, type WelcomeStepsProps } from './WelcomeSteps';
import './welcome.css';

export interface OpenFolderProps {
  canChooseFolder: boolean;
  recent: readonly string[];
  openFolder: (path: string) => Promise<boolean>;
  chooseFolder: () => void;
  onError: (message: string) => void;
  /** The path field, for the ask bar's Open Folder… to put focus in. */
  fieldRef: RefObject<HTMLInputElement | null>;
  steps: Omit<WelcomeStepsProps, 'children'>;
}

export function OpenFolder({ canChooseFolder, recent, openFolder, chooseFolder, onError, fieldRef, steps }: OpenFolderProps) {
  return (
    <main className="open-folder">
      <h1>Flint</h1>
      <p className="lead">Flint watches a project folder while you keep working in your own editor, and answers about the file you are in.</p>
      <WelcomeSteps {...steps}>
        {canChooseFolder && (
          <button type="button" className="primary" onClick={chooseFolder}>
            Open Folder…
          </button>
        )}
        <FolderPathForm openFolder={openFolder} onError={onError} autoFocus={!canChooseFolder} inputRef={fieldRef} />
        <RecentFolders recent={recent} openFolder={openFolder} />
      </WelcomeSteps>
    </main>
  );
}

function RecentFolders({ recent, openFolder }: { recent: readonly string[]; openFolder: (path: string) => Promise<boolean> }) {
  return (
    <>
      {recent.length > 0 && (
        <section aria-label="Recent folders" className="recent">
          <h3>Recent</h3>
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
    </>
  );
}
