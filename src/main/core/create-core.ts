/**
 * The composition root: every main-process service is built here, once, the same way for
 * both shells (and the tests, through their seams).
 */
import { dirname, join } from 'node:path';
import { version } from '../../../package.json';
import type { AppInfo } from '../../shared/contract';
import { AnswerService } from '../ask/answer-service';
import { AskService } from '../ask/ask-service';
import { DesktopLookup } from '../ask/desktop-lookup';
import type { DesktopReaders } from '../desktop/desktop-readers';
import { instructionsFor } from '../ask/instructions';
import { PromptBuilder } from '../ask/prompt-builder';
import { CredentialService } from '../credentials/credential-service';
import { KeytarSecretStore } from '../credentials/keytar-secret-store';
import type { SecretStore } from '../credentials/secret-store';
import { InferenceService, type ProviderFactory } from '../inference/inference-service';
import type { Logger } from '../logger';
import { NO_CURRENT_FILE } from '../project/current-file';
import type { ScanFileSystem } from '../project/tree-scanner';
import { cacheDirectory } from '../settings/config-directory';
import { SettingsStore } from '../settings/settings-store';
import { Workspace } from '../workspace/workspace';
import { FlintCore, type HotkeyHost } from './flint-core';

export interface CreateCoreOptions {
  shell: AppInfo['shell'];
  /** See AppInfo['askCommand'] (default `flint --ask`). */
  askCommand?: string;
  configDirectory: string;
  logger: Logger;
  chooseFolder?: () => Promise<string | null>;
  /** The system-wide shortcut (Electron only). */
  hotkey?: HotkeyHost;
  /** The focused window and the selection, read when the shortcut (or `flint --ask`) opens the bar. */
  desktop?: DesktopReaders;
  env?: NodeJS.ProcessEnv;
  /** Flint's cache folder (default: settings/config-directory.ts's `cacheDirectory`, from the environment). */
  cacheDirectory?: string;
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
  const credentials = new CredentialService(options.secretStore ?? new KeytarSecretStore(), logger);
  const inference = new InferenceService({
    settings,
    credentials,
    env,
    logger,
    factory: options.providerFactory,
    preloadInstructions: instructionsFor,
  });
  const workspace = new Workspace({
    journalFolder: join(dirname(settings.file), 'journals'),
    // Scratch files of writes, when the project has no git folder of its own to keep them in.
    scratchFolder: join(options.cacheDirectory ?? cacheDirectory(env), 'scratch'),
    logger,
    fileSystem: options.fileSystem,
    exclude: () => settings.value.exclude,
  });
  const prompts = new PromptBuilder({ inference, project: () => workspace.project });
  const answers = new AnswerService({
    workspace,
    inference,
    buildPrompt: (request) => prompts.build(request),
    logger,
    // Beside settings.json and the undo journals: one file per project.
    historyFolder: join(dirname(settings.file), 'conversations'),
  });
  const ask = new AskService({
    inference,
    prompts,
    project: () => workspace.project,
    currentFile: () => workspace.project?.currentFile.value ?? NO_CURRENT_FILE,
    desktop: new DesktopLookup({ ...options.desktop, useClipboard: () => settings.value.clipboardSelection }, () => workspace.project, logger),
    // The ask bar pre-loads only while no answer streams (a pre-load would take the socket the answer holds).
    isStreaming: () => answers.isStreaming,
  });
  return new FlintCore({
    shell: options.shell,
    version: options.version ?? version,
    askCommand: options.askCommand ?? 'flint --ask',
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
