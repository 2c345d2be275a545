/**
 * One turn of a conversation: what the user said (a question, a follow-up, a redirect, a
 * queued message), the note Flint sent the model about their decisions, the model's prose
 * and hunks, and how the turn went. Hunks a redirect superseded stay under their turn,
 * collapsed: out of Accept all and the A key, each still acceptable on its own.
 */
import type { TurnFields } from '../../../../shared/ask-types';
import { hunksOfTurn, type AnswerView } from './answer-view';
import { HunkCard, type HunkCardActions } from './HunkCard';
import { TurnProse, useHasProse } from './TurnProse';
import { TurnStatus } from './TurnStatus';
import type { AnswerHandle } from './use-answer';

export interface TurnBlockProps {
  view: AnswerView;
  turn: TurnFields;
  answer: AnswerHandle;
  /** The hunk the review keys act on. */
  currentHunk: string | null;
  cardActions: HunkCardActions;
  onOpenSettings: () => void;
}

const KIND_LABELS: Record<TurnFields['kind'], string> = {
  question: 'You asked',
  'follow-up': 'You followed up',
  redirect: 'You redirected',
  queued: 'You queued',
  retry: 'Retry',
};

export function TurnBlock({ view, turn, answer, currentHunk, cardActions, onOpenSettings }: TurnBlockProps) {
  const { current, superseded } = hunksOfTurn(view, turn.index);
  const hasProse = useHasProse(answer.prose, turn.index);
  const card = (id: string) => <HunkCard key={id} hunk={view.hunks[id]!} store={answer.lines} isCurrent={id === currentHunk} actions={cardActions} />;
  return (
    <section className={`turn is-${turn.status}`} aria-label={`Turn ${turn.index}`} data-turn={turn.index}>
      <header className="turn-ask">
        <span className="turn-kind">{KIND_LABELS[turn.kind]}</span>
        <span className="turn-model" title={turn.depth === 'deep' ? 'The deep model' : 'The fast model'}>
          {turn.model}
        </span>
        <p className="turn-words">{turn.text}</p>
      </header>
      {turn.note && (
        <p className="turn-note" title="Sent with this turn, so the model knows what you decided">
          Told the model: {turn.note}
        </p>
      )}
      {hasProse && (
        <div className="edit-prose" aria-label="Answer">
          <TurnProse prose={answer.prose} turn={turn.index} />
        </div>
      )}
      {current.map(card)}
      {/* New hunks are drawn here the moment they arrive, until their cards take over (hunk-previews.ts); React adds nothing here. */}
      <div className="hunk-previews" data-turn={turn.index} />
      {superseded.length > 0 && (
        <details className="superseded-hunks">
          <summary>
            {superseded.length} {superseded.length === 1 ? 'hunk' : 'hunks'} superseded by your redirect — not in Accept all; accept one on its own if you still want it
          </summary>
          {superseded.map(card)}
        </details>
      )}
      <TurnStatus turn={turn} answer={answer} onOpenSettings={onOpenSettings} />
    </section>
  );
}
