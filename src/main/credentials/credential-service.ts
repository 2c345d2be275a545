/**
 * API keys per provider: the OS keychain first, environment variables as a fallback.
 *
 * Keys leave this service only to the code that opens a provider connection. They are
 * never returned to the renderer, logged, or written anywhere but the keychain.
 */
import type { KeySource, ProviderConfig } from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import type { Logger } from '../logger';
import { SecretStoreUnavailableError, type SecretStore } from './secret-store';

/** Keys are short tokens; 8 KB is generous and keeps the keychain sane. */
const MAX_KEY_LENGTH = 8192;

export interface ResolvedKey {
  key: string | null;
  source: KeySource;
  /** The environment variable the key came from. */
  variable?: string;
}

export class CredentialService {
  private keychainProblem: string | null = null;

  constructor(
    private readonly store: SecretStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logger: Logger,
  ) {}

  /** Whether the keychain worked the last time it was used, and if not, why. */
  get keychainStatus(): { available: boolean; message?: string } {
    return this.keychainProblem === null ? { available: true } : { available: false, message: this.keychainProblem };
  }

  async resolve(provider: ProviderConfig): Promise<ResolvedKey> {
    try {
      const stored = await this.store.get(provider.id);
      this.keychainProblem = null;
      if (stored) return { key: stored, source: 'keychain' };
    } catch (error) {
      this.noteUnavailable(error);
    }
    // Only the provider's own variable: a key meant for one endpoint never goes to another.
    // (The FLINT_* provider's own variable is FLINT_API_KEY.)
    const variable = provider.keyVariable;
    const value = variable ? this.env[variable]?.trim() : undefined;
    if (variable && value) return { key: value, source: 'environment', variable };
    return { key: null, source: provider.keyOptional ? 'not-needed' : 'none' };
  }

  async set(providerId: string, key: string): Promise<void> {
    const trimmed = key.trim();
    if (trimmed.length === 0) throw new FlintFailure('invalid-input', 'Paste a key first.');
    if (trimmed.length > MAX_KEY_LENGTH) throw new FlintFailure('invalid-input', `That key is longer than ${MAX_KEY_LENGTH} characters.`);
    // A key never contains control characters; one that does is a paste accident.
    if (/\p{Cc}/u.test(trimmed)) throw new FlintFailure('invalid-input', 'That key contains control characters (a line break?); paste it again.');
    await this.guard(() => this.store.set(providerId, trimmed));
  }

  async delete(providerId: string): Promise<boolean> {
    return this.guard(() => this.store.delete(providerId));
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      const result = await operation();
      this.keychainProblem = null;
      return result;
    } catch (error) {
      this.noteUnavailable(error);
      throw new FlintFailure('keychain-unavailable', error instanceof Error ? error.message : String(error));
    }
  }

  private noteUnavailable(error: unknown): void {
    if (!(error instanceof SecretStoreUnavailableError)) throw error;
    if (this.keychainProblem !== error.message) this.logger.warn(`keychain unavailable: ${error.reason}`);
    this.keychainProblem = error.message;
  }
}
