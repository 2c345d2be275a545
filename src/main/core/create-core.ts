/**
 * The composition root: every main-process service is built here, once, the same way for
 * both shells (and the tests, through their seams).
 */
import { dirname, join } from 'node:path';
import { version } from '../../../package.json';
import type { AppInfo } from '../../shared/contract';
import { AnswerService } from '../ask/answer-service';
import { AskService } from '../ask/ask-service';
import { instructionsFor } from '../ask/edit-prompt';
import { CredentialService } from '../credentials/credential-service';
import { KeytarSecretStore } from '../credentials/keytar-secret-store';
import type { SecretStore } from '../credentials/secret-store';
import { InferenceService, type ProviderFactory } from '../inference/inference-service';
import type { Logger } from '../logger';
import type { ScanFileSystem } from '../project/tree-scanner';
import { SettingsStore } from '../settings/settings-store';
import { Workspace } from '../workspace/workspace';
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
  fileSystem?: ScanFileSystem;
  version?: string;
}

export async function createFlintCore(options: CreateCoreOptions): Promise<FlintCore> {
  const { logger } = options;
  const { store: settings, notice } = await SettingsStore.load(options.configDirectory);
  if (notice) logger.warn(notice);
  const env = options.env ?? process.env;
  const credentials = new CredentialService(options.secretStore ?? new KeytarSecretStore(), env, logger);
  const inference = new InferenceService({
    settings,
    credentials,
    env,
    logger,
    factory: options.providerFactory,
    preloadInstructions: instructionsFor,
  });
  const workspace = new Workspace({ journalFolder: join(dirname(settings.file), 'journals'), logger, fileSystem: options.fileSystem });
  // The ask bar pre-loads only while no answer streams (a pre-load would take the socket the answer holds).
  let answers: AnswerService | null = null;
  const ask = new AskService({
    inference,
    project: () => workspace.project,
    currentFile: () => workspace.project?.currentFile.value ?? { path: null, at: 0 },
    isStreaming: () => answers?.isStreaming ?? false,
  });
  answers = new AnswerService({ workspace, inference, buildPrompt: (request) => ask.build(request), logger });
  return new FlintCore({
    shell: options.shell,
    version: options.version ?? version,
    settings,
    logger,
    inference,
    workspace,
    ask,
    answers,
    chooseFolder: options.chooseFolder,
    hotkey: options.hotkey,
  });
}
