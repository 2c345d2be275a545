/**
 * Builds the core the same way for both shells: settings from the config folder, then the core.
 */
import { version } from '../../../package.json';
import type { AppInfo } from '../../shared/contract';
import type { Logger } from '../logger';
import { SettingsStore } from '../settings/settings-store';
import { FlintCore } from './flint-core';

export interface CreateCoreOptions {
  shell: AppInfo['shell'];
  configDirectory: string;
  logger: Logger;
  chooseFolder?: () => Promise<string | null>;
}

export async function createFlintCore(options: CreateCoreOptions): Promise<FlintCore> {
  const { store, notice } = await SettingsStore.load(options.configDirectory);
  if (notice) options.logger.warn(notice);
  return new FlintCore({
    shell: options.shell,
    version,
    settings: store,
    logger: options.logger,
    chooseFolder: options.chooseFolder,
  });
}
