/**
 * A first start that teaches: the three steps to a first answer, each with its state — a
 * folder to open (the form and Recent are the step's own controls, OpenFolder.tsx), a key
 * for the provider in use (one button opens Settings at its key field), and the shortcut
 * that asks (the real accelerator; where it cannot work from other apps, the command that
 * does).
 */
import type { ReactNode } from 'react';

export interface WelcomeStepsProps {
  /** The provider in use has a key (or needs none). */
  hasKey: boolean;
  /** The ask shortcut, as written. */
  shortcutLabel: string;
  /** It works from any app (registered system-wide). */
  systemWide: boolean;
  /** What runs the ask bar from other apps where the shortcut cannot (`flint --ask`). */
  askCommand: string | null;
  onAddKey: () => void;
  /** Step 1's controls: the folder form and Recent. */
  children: ReactNode;
}

export function WelcomeSteps({ hasKey, shortcutLabel, systemWide, askCommand, onAddKey, children }: WelcomeStepsProps) {
  return (
    <ol className="welcome-steps" aria-label="Three steps to a first answer">
      <Step number={1} title="Open a project folder" isDone={false}>
        {children}
      </Step>
      <Step number={2} title="Add a key for the model" isDone={hasKey}>
        {hasKey ? (
          <p>The provider in use has a key. Change it, or pick another provider, in Settings.</p>
        ) : (
          <p>
            Flint sends your question with the key of the provider in use; it stays in your system’s keychain.{' '}
            <button type="button" onClick={onAddKey}>
              Add key…
            </button>
          </p>
        )}
      </Step>
      <Step number={3} title="Ask from your editor" isDone={false}>
        <p>
          Save a file in your editor (or pick one in Flint), then press <kbd>{shortcutLabel}</kbd>
          {systemWide ? ' from any app.' : ' here in Flint.'}
        </p>
        {!systemWide && askCommand !== null && (
          <p>
            From other apps, bind a desktop shortcut to <code>{askCommand}</code>.
          </p>
        )}
      </Step>
    </ol>
  );
}

function Step({ number, title, isDone, children }: { number: number; title: string; isDone: boolean; children: ReactNode }) {
  return (
    <li className={`welcome-step${isDone ? ' is-done' : ''}`}>
      <h2>
        <span className="welcome-step-mark" aria-hidden="true">
          {isDone ? '✓' : number}
        </span>
        {title}
        <span className="welcome-step-state">{isDone ? ' — done' : ' — to do'}</span>
      </h2>
      {children}
    </li>
  );
}
