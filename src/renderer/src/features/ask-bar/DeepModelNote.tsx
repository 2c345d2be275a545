/**
 * Alt+Enter asked for the deep model and the provider has none: the bar says so (nothing
 * was sent, the words stay) and offers Settings, where the deep model is chosen.
 */
import type { AskRefusal } from '../edits/use-answer';

export function DeepModelNote({ refusal, draft, onOpenSettings }: { refusal: AskRefusal | null; draft: string; onOpenSettings: () => void }) {
  // Only while the words it refused are still the draft: once edited, the note is old news.
  if (!refusal || refusal.prompt !== draft.trim()) return null;
  return (
    <p className="ask-bar-blocker is-emphasized" role="alert">
      {refusal.message}{' '}
      <button type="button" className="link" onClick={onOpenSettings}>
        Open Settings
      </button>
    </p>
  );
}
