/**
 * The OS keychain through keytar: macOS Keychain, Windows Credential Manager,
 * the Secret Service (gnome-keyring, KWallet) on Linux.
 *
 * keytar is loaded on first use, so a missing native module or libsecret makes the
 * keychain "unavailable" instead of crashing Flint at start.
 */
import { SECRET_SERVICE, SecretStoreUnavailableError, type SecretStore } from './secret-store';

type Keytar = typeof import('keytar');

export class KeytarSecretStore implements SecretStore {
  private keytar: Promise<Keytar> | null = null;

  constructor(private readonly service: string = SECRET_SERVICE) {}

  get(account: string): Promise<string | null> {
    return this.call((keytar) => keytar.getPassword(this.service, account));
  }

  set(account: string, secret: string): Promise<void> {
    return this.call((keytar) => keytar.setPassword(this.service, account, secret));
  }

  delete(account: string): Promise<boolean> {
    return this.call((keytar) => keytar.deletePassword(this.service, account));
  }

  private async call<T>(operation: (keytar: Keytar) => Promise<T>): Promise<T> {
    this.keytar ??= import('keytar').then((module) => ('default' in module ? (module.default as Keytar) : module));
    let keytar: Keytar;
    try {
      keytar = await this.keytar;
    } catch (error) {
      this.keytar = null;
      throw new SecretStoreUnavailableError(`the keytar module could not load: ${firstLine(error)}`);
    }
    try {
      return await operation(keytar);
    } catch (error) {
      // keytar reports every platform failure as a plain Error; none of them carry the secret.
      throw new SecretStoreUnavailableError(firstLine(error));
    }
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim() || 'unknown error';
}
