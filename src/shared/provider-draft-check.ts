/**
 * What a provider's settings must be, field by field, in sentences that say what to type.
 *
 * One rule for both sides: the Settings form marks every field at once with these words,
 * and main checks every draft it is sent (and every provider settings.json holds) with the
 * same functions, so the two can never disagree. Plain TS: the renderer does not bundle zod.
 */
import type { ProviderConfig, ProviderDraft } from './inference-types';

/** The fields of a provider a person types (the protocol and "no key needed" are picked, never wrong). */
export type ProviderField = 'label' | 'baseUrl' | 'model' | 'deepModel' | 'keyVariable' | 'contextWindow';

/** The form's order: the first invalid field in it gets focus. */
export const PROVIDER_FIELDS: readonly ProviderField[] = ['label', 'baseUrl', 'model', 'deepModel', 'keyVariable', 'contextWindow'];

/** Each invalid field's problem; a field that is fine has none. */
export type ProviderProblems = Partial<Record<ProviderField, string>>;

const KEY_VARIABLE = /^[A-Z][A-Z0-9_]{0,119}_API_KEY$/;

/** A provider's name (`label`), trimmed. */
export function labelProblem(label: string): string | null {
  const name = label.trim();
  if (name === '') return 'Give the provider a name.';
  if (name.length > 80) return 'The name is longer than 80 characters.';
  return null;
}

/** The base URL, trimmed: http or https with a host. */
export function baseUrlProblem(baseUrl: string): string | null {
  return isHttpUrl(baseUrl.trim()) ? null : 'The base URL must be an http:// or https:// address, like https://api.example.com/v1.';
}

/** A model's name, trimmed. The deep model is optional: an empty one is a problem only where it was written out (settings.json). */
export function modelProblem(model: string, slot: 'fast' | 'deep'): string | null {
  const name = model.trim();
  if (name === '') return slot === 'fast' ? 'Name the fast model.' : 'Name the deep model, or leave it out.';
  if (name.length > 200) return `The ${slot} model’s name is longer than 200 characters.`;
  return null;
}

/**
 * Only *_API_KEY names: a provider can never be pointed at another secret of the
 * environment (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY) and send it to its address.
 */
export function keyVariableProblem(name: string): string | null {
  return KEY_VARIABLE.test(name)
    ? null
    : 'The key variable must be a name in capitals ending in _API_KEY, like MY_PROVIDER_API_KEY (so no other secret of your environment can be sent to a provider).';
}

/** The context window in tokens (NaN: the text typed was not a number). */
export function contextWindowProblem(tokens: number): string | null {
  if (!Number.isFinite(tokens)) return 'The context window must be a number of tokens, like 131072.';
  if (!Number.isInteger(tokens)) return 'The context window must be a whole number of tokens.';
  if (tokens < 2048) return 'The context window must be at least 2,048 tokens.';
  if (tokens > 10_000_000) return 'The context window must be at most 10,000,000 tokens.';
  return null;
}

/**
 * The provider that already has this name (compared trimmed and ignoring case), other than
 * the one edited. A provider edited without renaming it keeps its name, even one that two
 * providers shared before names had to differ (a model switch must never be refused for it).
 */
export function providerNamed(label: string, providers: readonly Pick<ProviderConfig, 'id' | 'label'>[], editingId: string | null): Pick<ProviderConfig, 'id' | 'label'> | undefined {
  const key = nameKey(label);
  if (key === '') return undefined;
  const own = providers.find((provider) => provider.id === editingId);
  if (own && nameKey(own.label) === key) return undefined;
  return providers.find((provider) => provider.id !== editingId && nameKey(provider.label) === key);
}

/** The refusal of a name another provider has; it names that provider as it is written. */
export function duplicateNameMessage(existingLabel: string): string {
  return `There is already a provider named “${existingLabel}”: give this one another name.`;
}

/**
 * Every field's problem, not only the first. Empty optional fields (deep model, key
 * variable) mean none; `editingId` is the provider edited (null: one being added).
 */
export function checkProviderDraft(draft: ProviderDraft, providers: readonly Pick<ProviderConfig, 'id' | 'label'>[], editingId: string | null): ProviderProblems {
  const problems: ProviderProblems = {};
  const namesake = providerNamed(draft.label, providers, editingId);
  const label = labelProblem(draft.label) ?? (namesake ? duplicateNameMessage(namesake.label) : null);
  if (label) problems.label = label;
  const baseUrl = baseUrlProblem(draft.baseUrl);
  if (baseUrl) problems.baseUrl = baseUrl;
  const model = modelProblem(draft.model, 'fast');
  if (model) problems.model = model;
  const deepModel = draft.deepModel?.trim() ? modelProblem(draft.deepModel, 'deep') : null;
  if (deepModel) problems.deepModel = deepModel;
  const keyVariable = draft.keyVariable?.trim() ? keyVariableProblem(draft.keyVariable.trim()) : null;
  if (keyVariable) problems.keyVariable = keyVariable;
  const contextWindow = draft.contextWindow !== undefined ? contextWindowProblem(draft.contextWindow) : null;
  if (contextWindow) problems.contextWindow = contextWindow;
  return problems;
}

/** The problems in the form's order, as sentences. */
export function problemList(problems: ProviderProblems): string[] {
  return PROVIDER_FIELDS.flatMap((field) => problems[field] ?? []);
}

/** How names are compared: trimmed, case folded, compatibility forms unified (ﬁ = fi). */
function nameKey(label: string): string {
  return label.trim().normalize('NFKC').toLowerCase();
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
