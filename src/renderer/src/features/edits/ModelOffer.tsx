/**
 * A turn refused for its model: the models the provider lists for this key, one click
 * each — the click sets that model (in the slot that failed, fast or deep) and retries.
 */
import { useEffect, useState } from 'react';
import type { TurnFields } from '../../../../shared/ask-types';
import { modelsToOffer } from '../../../../shared/model-offer';
import { flint } from '../../lib/flint';
import type { AnswerHandle } from './use-answer';

interface Offer {
  providerId: string;
  models: string[];
  /** Why no list could be had (the configured names stood in). */
  reason?: string;
}

export function ModelOffer({ turn, answer }: { turn: TurnFields; answer: AnswerHandle }) {
  const [offer, setOffer] = useState<Offer | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    void (async () => {
      const providers = await flint.getProviders({});
      if (!providers.ok) return;
      const providerId = providers.value.activeProviderId;
      const list = await flint.listModels({ providerId });
      if (!isCurrent || !list.ok) return;
      const view = list.value;
      setOffer({ providerId, models: view.source === 'provider' ? modelsToOffer(view.models, turn.model) : [], ...(view.reason ? { reason: view.reason } : {}) });
    })();
    return () => {
      isCurrent = false;
    };
  }, [turn.model]);

  const use = async (providerId: string, model: string) => {
    setChosen(model);
    const set = await flint.setProviderModel({ providerId, slot: turn.depth, model });
    if (!set.ok) {
      setError(set.error.message);
      setChosen(null);
      return;
    }
    await answer.retry(turn.index, turn.depth);
  };

  if (!offer) return <p className="turn-status">Asking the provider which models this key can use…</p>;
  if (offer.models.length === 0) {
    return <p className="turn-status">{offer.reason ?? 'The provider lists no other model for this key.'} Choose a model in Settings.</p>;
  }
  return (
    <>
      <div className="model-offer" role="group" aria-label={`Use another ${turn.depth} model and retry`}>
        <span>Use one of:</span>
        {offer.models.map((model) => (
          <button key={model} type="button" disabled={chosen !== null} title={`Set ${model} as the ${turn.depth} model and retry`} onClick={() => void use(offer.providerId, model)}>
            {model}
          </button>
        ))}
      </div>
      {error && <p className="form-error">{error}</p>}
    </>
  );
}
