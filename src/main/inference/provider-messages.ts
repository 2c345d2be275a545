/**
 * The sentences about a provider that several surfaces show (the ask bar, the status bar,
 * a failed turn, Test connection): one wording each.
 */
import type { ProviderConfig } from '../../shared/inference-types';

/**
 * Why a provider cannot be asked anything, in the one wording every surface shows (the ask
 * bar, the status bar, Test connection, a refused request).
 *
 * It names Settings but no shortcut to it (Cmd on macOS, Ctrl elsewhere), and asks for a
 * restart ("start Flint with") only for the variable: the environment is read once, at start.
 */
export function noKeyMessage(config: Pick<ProviderConfig, 'label' | 'keyVariable'>): string {
  return `No API key for ${config.label}. Add one in Settings, or start Flint with ${config.keyVariable ?? 'FLINT_API_KEY'} set.`;
}

/**
 * A refused model, in the words every surface shows: the model and the provider by name.
 * The provider's own words are left out: the UI offers the models it lists instead.
 */
export function modelUnavailableMessage(model: string, config: Pick<ProviderConfig, 'label'>): string {
  return `${model} is not available with this key at ${config.label}.`;
}
