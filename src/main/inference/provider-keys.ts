/**
 * Which key a request to a provider may carry: every key is bound to the origin (scheme,
 * host, port) it was given for, and sent nowhere else.
 *
 * - A key saved in Settings is stored under the provider *and* its origin (credentials/):
 *   a base URL moved elsewhere, or a new provider with an old one's name, finds none.
 * - `FLINT_API_KEY` is given with `FLINT_BASE_URL`: for the environment provider it wins over
 *   the keychain for that run, and goes to that address only.
 * - Any other variable (`OPENAI_API_KEY`, a custom provider's `MY_API_KEY`) goes only to the
 *   origins of the preset that names it, unless the user confirmed another origin in
 *   Settings (remembered per variable and origin in settings.json, `originConsents`).
 * - No key goes over plain http to an address that is not this machine unless the user
 *   confirmed that origin ("Send the key unencrypted to gpu-box.lan?").
 *
 * Every request path (model list, warm-up, stream, Test connection) resolves its key here.
 */
import type { KeySource, KeyWithheld, ProviderConfig } from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import type { CredentialService } from '../credentials/credential-service';
import type { SettingsStore } from '../settings/settings-store';
import { BUILT_IN_PROVIDERS, ENVIRONMENT_PROVIDER_ID } from './provider-catalog';
import { isLoopbackOrigin, isUnencrypted, originOf } from './provider-origin';

/** The key a request to `origin` may carry (null: none), and where it is from. */
export interface ResolvedKey {
  key: string | null;
  source: KeySource;
  /** The environment variable the key is from. */
  variable?: string;
  /** The origin the key is sent to: the provider's. */
  origin: string;
  /** A key is there, but not sent until the user confirms. */
  withheld?: KeyWithheld;
}

/** The variable the environment provider's key is in, given with FLINT_BASE_URL. */
const FLINT_KEY_VARIABLE = 'FLINT_API_KEY';

export interface ProviderKeysOptions {
  credentials: CredentialService;
  settings: SettingsStore;
  env: NodeJS.ProcessEnv;
  /** The providers as configured now (the environment provider's address binds FLINT_API_KEY). */
  find: (id: string) => ProviderConfig | undefined;
}

export class ProviderKeys {
  constructor(private readonly options: ProviderKeysOptions) {}

  async resolve(provider: ProviderConfig): Promise<ResolvedKey> {
    const origin = originOf(provider.baseUrl);
    const candidate = await this.candidate(provider, origin);
    if (candidate === null) return { key: null, source: provider.keyOptional ? 'not-needed' : 'none', origin };
    const withheld = this.withholding(provider, origin, candidate);
    if (withheld) return { ...candidate, key: null, origin, withheld };
    return { ...candidate, origin };
  }

  /** Stores a key for the provider at its current origin. */
  set(provider: ProviderConfig, key: string): Promise<void> {
    return this.options.credentials.set({ providerId: provider.id, origin: originOf(provider.baseUrl) }, key);
  }

  delete(provider: ProviderConfig): Promise<boolean> {
    return this.options.credentials.delete({ providerId: provider.id, origin: originOf(provider.baseUrl) });
  }

  /**
   * A provider was removed (`after` undefined) or its address moved to another origin: its key
   * for the old origin goes from the keychain too (it is unreachable anyway; no secret is kept for nothing).
   */
  async forgetIfMoved(before: ProviderConfig, after: ProviderConfig | undefined): Promise<void> {
    const origin = originOf(before.baseUrl);
    if (after && originOf(after.baseUrl) === origin) return;
    await this.options.credentials.delete({ providerId: before.id, origin });
  }

  /**
   * The user confirms what `withheld` said about `origin`: the variable's key may go there
   * (`other-origin`), or any key may go there unencrypted (`cleartext`). Refused when the
   * provider is not at `origin` now, or its key is not withheld for that reason (a stale
   * button): a yes is never recorded for an address the user was not shown.
   */
  async allow(provider: ProviderConfig, reason: KeyWithheld['reason'], origin: string): Promise<void> {
    const resolved = await this.resolve(provider);
    if (resolved.origin !== origin) throw new FlintFailure('invalid-state', `${provider.label} is no longer at ${origin}; nothing was allowed.`);
    if (resolved.withheld?.reason !== reason) throw new FlintFailure('invalid-state', `${provider.label}'s key is not held back for that reason (any more).`);
    const consents = this.options.settings.value.originConsents;
    if (reason === 'cleartext') {
      await this.options.settings.update({ originConsents: { ...consents, cleartext: [...new Set([...consents.cleartext, resolved.origin])] } });
      return;
    }
    const variable = resolved.variable!;
    const origins = [...new Set([...(consents.variables[variable] ?? []), resolved.origin])];
    await this.options.settings.update({ originConsents: { ...consents, variables: { ...consents.variables, [variable]: origins } } });
  }

  /** The key Flint has for the provider, before the origin rules: FLINT_API_KEY, the keychain, then its variable. */
  private async candidate(provider: ProviderConfig, origin: string): Promise<Omit<ResolvedKey, 'origin'> | null> {
    const { env, credentials } = this.options;
    const flintKey = env[FLINT_KEY_VARIABLE]?.trim();
    if (provider.id === ENVIRONMENT_PROVIDER_ID && flintKey) return { key: flintKey, source: 'environment', variable: FLINT_KEY_VARIABLE };
    const address = { providerId: provider.id, origin };
    const stored = (await credentials.stored(address)) ?? (this.mayAdoptLegacy(provider, origin) ? await credentials.adoptLegacy(address).catch(() => null) : null);
    if (stored) return { key: stored, source: 'keychain' };
    const variable = provider.keyVariable;
    const value = variable ? env[variable]?.trim() : undefined;
    return variable && value ? { key: value, source: 'environment', variable } : null;
  }

  /**
   * An older Flint stored keys under the bare provider id, not knowing the origin. Only a
   * preset's key at the preset's own address is known to be for that address; any other
   * (a custom provider, possibly re-created elsewhere; the environment's) is never guessed at.
   */
  private mayAdoptLegacy(provider: ProviderConfig, origin: string): boolean {
    const preset = BUILT_IN_PROVIDERS.find((candidate) => candidate.id === provider.id);
    return preset !== undefined && originOf(preset.baseUrl) === origin;
  }

  private withholding(provider: ProviderConfig, origin: string, candidate: Omit<ResolvedKey, 'origin'>): KeyWithheld | undefined {
    const consents = this.options.settings.value.originConsents;
    const variable = candidate.variable;
    if (candidate.source === 'environment' && variable && !this.boundOrigins(variable).includes(origin) && !(consents.variables[variable] ?? []).includes(origin)) {
      return { reason: 'other-origin', message: this.otherOriginMessage(variable, origin) };
    }
    if (isUnencrypted(origin) && !isLoopbackOrigin(origin) && !consents.cleartext.includes(origin)) {
      const { host, protocol } = new URL(origin);
      return { reason: 'cleartext', message: `${provider.label} is at ${origin}, which is not encrypted (${protocol.slice(0, -1)}): the key is not sent to ${host} unless you allow it in Settings.` };
    }
    return undefined;
  }

  /** The origins a variable's key is for: its preset's address; FLINT_API_KEY's is FLINT_BASE_URL's. */
  private boundOrigins(variable: string): string[] {
    if (variable === FLINT_KEY_VARIABLE) {
      const environment = this.options.find(ENVIRONMENT_PROVIDER_ID);
      return environment ? [originOf(environment.baseUrl)] : [];
    }
    return BUILT_IN_PROVIDERS.filter((preset) => preset.keyVariable === variable).map((preset) => originOf(preset.baseUrl));
  }

  /** Why a variable's key is held back from `origin`, naming where it does belong. */
  private otherOriginMessage(variable: string, origin: string): string {
    const origins = this.boundOrigins(variable);
    const belongs = origins.length > 0 ? `it is the key for ${origins.join(' and ')}` : 'no provider Flint ships uses it';
    return `${variable} is set, but ${belongs}: it is not sent to ${origin} unless you allow it in Settings.`;
  }
}
