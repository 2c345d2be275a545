/**
 * Where API keys live: the OS keychain, behind an interface small enough to swap.
 *
 * keytar (the implementation today) is archived upstream; replacing it means
 * writing one file against this interface.
 */

/** Stores one secret per account under Flint's service name. */
export interface SecretStore {
  /** The secret, or null if none is stored for `account`. */
  get(account: string): Promise<string | null>;
  /** Adds or replaces the secret for `account`. */
  set(account: string, secret: string): Promise<void>;
  /** Removes it; false if there was none. */
  delete(account: string): Promise<boolean>;
}

/** The keychain cannot be used (no Secret Service, locked, native module missing). */
export class SecretStoreUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(
      `No OS keychain is available (${reason}). ` +
        'Flint will not store keys in plain text; set the key in an environment variable instead ' +
        '(FLINT_API_KEY, or the provider’s usual one such as OPENAI_API_KEY).',
    );
    this.name = 'SecretStoreUnavailableError';
  }
}

/** The service name every Flint secret is stored under. */
export const SECRET_SERVICE = 'Flint';
