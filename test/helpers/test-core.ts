/**
 * A real FlintCore for tests, with an in-memory secret store and no network by default.
 */
import { join } from 'node:path';
import { createFlintCore } from '../../src/main/core/create-core';
import type { HotkeyHost } from '../../src/main/core/flint-core';
import type { DesktopReaders } from '../../src/main/desktop/desktop-readers';
import type { SecretStore } from '../../src/main/credentials/secret-store';
import type { ProviderFactory } from '../../src/main/inference/inference-service';
import { createMemoryLogger } from '../../src/main/logger';
import type { EventEnvelope } from '../../src/shared/contract';

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
  desktop?: DesktopReaders;
}

export async function createTestCore(options: TestCoreOptions) {
  const logger = createMemoryLogger();
  const secretStore = options.secretStore ?? new MemorySecretStore();
  // The app's own composition root, with its test seams: what the tests run is what ships.
  const core = await createFlintCore({
    shell: options.hotkey ? 'electron' : 'serve',
    version: 'test',
    configDirectory: options.configDirectory,
    cacheDirectory: join(options.configDirectory, 'cache'),
    logger,
    env: options.env ?? {},
    secretStore,
    providerFactory: options.providerFactory,
    hotkey: options.hotkey,
    desktop: options.desktop,
  });
  return { core, logger, secretStore };
}

/** The tree event sent once the whole index is built (the first one, with the top level only, comes before). */
export function isIndexedTree(event: EventEnvelope): boolean {
  return event.channel === 'project:tree' && (event as EventEnvelope<'project:tree'>).payload.entryCount !== null;
}
