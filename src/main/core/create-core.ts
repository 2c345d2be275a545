/**
 * Builds the core the same way for both shells: settings from the config folder, then the core.
 */
import { version } from '../../../package.json';
import type { AppInfo } from '../../shared/contract';
import type { Logger } from '../logger';
import { CredentialService } from '../credentials/credential-service';
import { KeytarSecretStore } from '../credentials/keytar-secret-store';
import type { SecretStore } from '../credentials/secret-store';
import { editInstructions } from '../edits/edit-prompt';
import { InferenceService, type ProviderFactory } from '../inference/inference-service';
import { SettingsStore } from '../settings/settings-store';
import { FlintCore, type HotkeyHost } from './flint-core';

export interface CreateCoreOptions {
  shell: AppInfo['shell'];
  configDirectory: string;
  logger: Logger;
  chooseFolder?: () => Promise<string | null>;
  /** The system-wide shortcut (Electron only). */
  hotkey?: HotkeyHost;
  env?: NodeJS.ProcessEnv;
  /** Test seams. */
  secretStore?: SecretStore;
  providerFactory?: ProviderFactory;
}

export async function createFlintCore(options: CreateCoreOptions): Promise<FlintCore> {
  const { store, notice } = await SettingsStore.load(options.configDirectory);
  if (notice) options.logger.warn(notice);
  const env = options.env ?? process.env;
  const credentials = new CredentialService(options.secretStore ?? new KeytarSecretStore(), env, options.logger);
  const inference = new InferenceService({
    settings: store,
    credentials,
    env,
    logger: options.logger,
    factory: options.providerFactory,
    preloadInstructions: (kind) => editInstructions(kind === 'openai-responses' ? 'v4a' : 'search-replace'),
  });
  return new FlintCore({
    shell: options.shell,
    version,
    settings: store,
    logger: options.logger,
    inference,
    chooseFolder: options.chooseFolder,
    hotkey: options.hotkey,
  });
}
