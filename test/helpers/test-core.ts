/**
 * A real FlintCore for tests, with an in-memory secret store and no network by default.
 */
import { CredentialService } from '../../src/main/credentials/credential-service';
import type { SecretStore } from '../../src/main/credentials/secret-store';
import { FlintCore, type HotkeyHost } from '../../src/main/core/flint-core';
import { InferenceService, type ProviderFactory } from '../../src/main/inference/inference-service';
import { createMemoryLogger } from '../../src/main/logger';
import { SettingsStore } from '../../src/main/settings/settings-store';

/** Secrets in a Map: for tests of everything but the keychain itself. */
export class MemorySecretStore implements SecretStore {
  readonly secrets = new Map<string, string>();
  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }
  async set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret);
  }
  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account);
  }
}

export interface TestCoreOptions {
  configDirectory: string;
  env?: NodeJS.ProcessEnv;
  secretStore?: SecretStore;
  providerFactory?: ProviderFactory;
  hotkey?: HotkeyHost;
}

export async function createTestCore(options: TestCoreOptions) {
  const logger = createMemoryLogger();
  const { store: settings } = await SettingsStore.load(options.configDirectory);
  const env = options.env ?? {};
  const secretStore = options.secretStore ?? new MemorySecretStore();
  const inference = new InferenceService({
    settings,
    credentials: new CredentialService(secretStore, env, logger),
    env,
    logger,
    factory: options.providerFactory,
  });
  const core = new FlintCore({ shell: options.hotkey ? 'electron' : 'serve', version: 'test', settings, logger, inference, hotkey: options.hotkey });
  return { core, logger, settings, secretStore };
}
