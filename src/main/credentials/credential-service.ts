/**
 * API keys in the OS keychain, each bound to the address it was given for.
 *
 * A keychain entry is named by the provider and the origin its key is for
 * (`openai@https://api.openai.com`): a provider whose base URL moves to another origin, or
 * a new provider that happens to get an old one's id, finds no key. Which key a request may
 * carry (keychain, environment, consent) is decided above this, in inference/provider-keys.ts.
 *
 * Keys leave this service only to that code. They are never returned to the renderer,
 * logged, or written anywhere but the keychain.
 */
import { FlintFailure } from '../../shared/result';
import type { Logger } from '../logger';
import { SecretStoreUnavailableError, type SecretStore } from './secret-store';

/** Keys are short tokens; 8 KB is generous and keeps the keychain sane. */
const MAX_KEY_LENGTH = 8192;

/** Who a stored key is for: a provider, at one origin (`https://api.openai.com`). */
export interface KeyAddress {
  providerId: string;
  origin: string;
}

/** The keychain account of an address. */
export function keychainAccount(address: KeyAddress): string {
  return `${address.providerId}@${address.origin}`;
}

export class CredentialService {
  private keychainProblem: string | null = null;

  constructor(
    private readonly store: SecretStore,
    private readonly logger: Logger,
  ) {}

  /** Whether the keychain worked the last time it was used, and if not, why. */
  get keychainStatus(): { available: boolean; message?: string } {
    return this.keychainProblem === null ? { available: true } : { available: false, message: this.keychainProblem };
  }

  /** The key stored for `address`; null when none is, or the keychain cannot be used (see keychainStatus). */
  async stored(address: KeyAddress): Promise<string | null> {
    return this.read(keychainAccount(address));
  }

  /**
   * A key stored by an older Flint under the bare provider id, moved to `address` (the one
   * origin the caller knows it was for) and removed from the old name; null if none.
   */
  async adoptLegacy(address: KeyAddress): Promise<string | null> {
    const legacy = await this.read(address.providerId);
    if (legacy === null) return null;
    await this.set(address, legacy);
    await this.guard(() => this.store.delete(address.providerId));
    this.logger.info(`moved the keychain entry of ${address.providerId} to ${keychainAccount(address)}`);
    return legacy;
  }

  async set(address: KeyAddress, key: string): Promise<void> {
    const trimmed = key.trim();
    if (trimmed.length === 0) throw new FlintFailure('invalid-input', 'Paste a key first.');
    if (trimmed.length > MAX_KEY_LENGTH) throw new FlintFailure('invalid-input', `That key is longer than ${MAX_KEY_LENGTH} characters.`);
    // A key never contains control characters; one that does is a paste accident.
    if (/\p{Cc}/u.test(trimmed)) throw new FlintFailure('invalid-input', 'That key contains control characters (a line break?); paste it again.');
    await this.guard(() => this.store.set(keychainAccount(address), trimmed));
  }

  async delete(address: KeyAddress): Promise<boolean> {
    return this.guard(() => this.store.delete(keychainAccount(address)));
  }

  private async read(account: string): Promise<string | null> {
    try {
      const stored = await this.store.get(account);
      this.keychainProblem = null;
      return stored || null;
    } catch (error) {
      this.noteUnavailable(error);
      return null;
    }
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
