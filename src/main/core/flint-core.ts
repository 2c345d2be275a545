/**
 * Flint's main-process core: open projects, the current file, settings — behind the contract.
 *
 * Both shells construct one of these and bind its `handlers` and `onDidEmit`; neither
 * holds logic of its own. Nothing here imports electron: what only a shell can do
 * (a native folder dialog) comes in as an option.
 */
import { opendir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseAccelerator } from '../../shared/accelerator';
import type { AskOpenRequest, HotkeyStatus } from '../../shared/ask-types';
import type { AppInfo, EventChannel, EventEnvelope, EventPayloads, UiSettings } from '../../shared/contract';
import type { CloseReason, ProjectInfo } from '../../shared/project-types';
import { FlintFailure } from '../../shared/result';
import type { RequestHandlers } from '../contract-host';
import { AskService, type AskProject } from '../ask/ask-service';
import { projectOutline } from '../context/project-outline';
import { SaveHistory } from '../context/save-history';
import type { InferenceService } from '../inference/inference-service';
import type { LatencyFigures } from '../../shared/inference-types';
import { createInferenceHandlers, forwardInferenceEvents } from './inference-handlers';
import { EditService } from '../edits/edit-service';
import { createEditHandlers } from './edit-handlers';
import { DisposableStore, Emitter, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import { CurrentFileTracker } from '../project/current-file';
import { readProjectFile } from '../project/file-reader';
import { toFlintFailure } from '../fs/fs-errors';
import { resolveExistingInProject } from '../project/path-guard';
import { ProjectSession } from '../project/project-session';
import type { ScanFileSystem } from '../project/tree-scanner';
import type { SettingsStore } from '../settings/settings-store';

export interface FlintCoreOptions {
  shell: AppInfo['shell'];
  version: string;
  settings: SettingsStore;
  logger: Logger;
  inference: InferenceService;
  /** Shows a native folder picker; absent in shells without one. Resolves null if cancelled. */
  chooseFolder?: () => Promise<string | null>;
  /** The system-wide shortcut (Electron). Without one, the shortcut works inside the app only. */
  hotkey?: HotkeyHost;
  /** Test seam for the project scan. */
  fileSystem?: ScanFileSystem;
}

/** What the core needs of the system-wide shortcut (GlobalHotkey in Electron). */
export interface HotkeyHost {
  readonly status: HotkeyStatus;
  register(accelerator: string): HotkeyStatus;
  readonly onDidChangeStatus: Event<HotkeyStatus>;
}

export class FlintCore implements Disposable {
  private project: ProjectInfo | null = null;
  private session: ProjectSession | null = null;
  private sessionStore: DisposableStore | null = null;
  private nextProjectId = 1;
  private lastLatency: LatencyFigures | null = null;
  private edits: EditService | null = null;
  /** The open project's remembered versions (for "the lines I just changed") and outline. */
  private context: { history: SaveHistory; outline: string | null } | null = null;
  /** Files Flint itself is writing, until when: their watcher echo is not the user's save. */
  private readonly ownWrites = new Map<string, number>();
  private readonly store = new DisposableStore();
  private readonly _onDidEmit = this.store.add(new Emitter<EventEnvelope>());

  /** Every event for the UI, in order. Shells forward these to their renderers. */
  readonly onDidEmit: Event<EventEnvelope> = this._onDidEmit.event;
  readonly currentFile = this.store.add(new CurrentFileTracker());
  readonly ask: AskService;
  readonly handlers: RequestHandlers;

  constructor(private readonly options: FlintCoreOptions) {
    this.store.add(this.currentFile.onDidChange((current) => this.emit('currentFile:changed', current)));
    this.ask = new AskService({
      inference: options.inference,
      project: () => this.askProject(),
      currentFile: () => this.currentFile.value,
      isStreaming: () => this.edits?.isStreaming ?? false,
    });
    if (options.hotkey) {
      this.store.add(options.hotkey.onDidChangeStatus((status) => this.emit('hotkey:status', status)));
      options.hotkey.register(options.settings.value.shortcut);
    }
    for (const subscription of forwardInferenceEvents(options.inference, (channel, payload) => this.emit(channel, payload), (figures) => (this.lastLatency = figures))) {
      this.store.add(subscription);
    }
    this.store.add(options.inference);
    // Latency is the product: open the model connection before anyone asks.
    void options.inference.warm().catch((error: unknown) => options.logger.warn('could not warm the model connection', error));
    const editHandlers = createEditHandlers(() => this.edits);
    this.handlers = {
      ...createInferenceHandlers(options.inference),
      ...editHandlers,
      askModel: async (input) => {
        // A save still being written is waited for (bounded) before the files are read to be sent.
        const paths = input.paths?.length ? input.paths : [this.currentFile.value.path];
        for (const path of paths) if (path !== null) await this.context?.history.settledLines(path).catch(() => undefined);
        return editHandlers.askModel(input);
      },
      getAppInfo: async () => ({
        shell: options.shell,
        canChooseFolder: options.chooseFolder !== undefined,
        version: options.version,
      }),
      getAppState: async () => ({
        project: this.project,
        tree: this.session?.entries ?? null,
        currentFile: this.currentFile.value,
        recent: [...options.settings.value.recentProjects],
        settings: this.uiSettings(),
        connection: { providerId: options.inference.activeProviderId, ...options.inference.connectionState },
        lastLatency: this.lastLatency,
        hotkey: this.hotkeyStatus,
      }),
      openProject: ({ path }) => this.openProject(path),
      chooseProjectFolder: async () => {
        if (!options.chooseFolder) {
          throw new FlintFailure('unsupported', 'This shell has no folder dialog; type the folder path instead.');
        }
        const chosen = await options.chooseFolder();
        return chosen === null ? null : this.openProject(chosen);
      },
      closeProject: async () => {
        await this.closeProject('closed', 'Project closed.');
        return null;
      },
      listDirectory: ({ path }) => this.requireSession().listDirectory(path),
      readFile: ({ path }) => readProjectFile(this.requireSession().root, path),
      selectFile: async ({ path }) => {
        const root = this.requireSession().root;
        const { relativePath } = await resolveExistingInProject(root, path);
        // The version shown now is what the next save is compared with.
        void this.context?.history.noteShown(relativePath);
        return this.currentFile.select(relativePath);
      },
      prepareAsk: ({ focus }) => this.ask.prepare(focus),
      removeRecent: async ({ path }) => {
        const settings = await options.settings.removeRecent(path);
        this.emit('recent:changed', { recent: [...settings.recentProjects] });
        return [...settings.recentProjects];
      },
      updateSettings: (patch) => this.updateSettings(patch),
    };
  }

  /** The Recent list, most recent first. */
  get recentProjects(): string[] {
    return [...this.options.settings.value.recentProjects];
  }

  /**
   * Opens the ask bar in the renderer (the system-wide shortcut, the tray, `flint --ask`)
   * and, at the same time, warms the connection and pre-loads the current file.
   */
  openAskBar(trigger: AskOpenRequest['trigger']): void {
    this.emit('ask:open', { trigger, atEpochMs: performance.timeOrigin + performance.now() });
    void this.ask.prepare('recent-change').catch((error: unknown) => this.options.logger.warn('could not prepare the ask bar', error));
  }

  get hotkeyStatus(): HotkeyStatus {
    return (
      this.options.hotkey?.status ?? {
        accelerator: this.options.settings.value.shortcut,
        state: 'unavailable',
        message: 'This shell has no system-wide shortcut: the shortcut works while Flint has focus.',
        alternatives: [],
      }
    );
  }

  /** The open project, if any. */
  get openedProject(): ProjectInfo | null {
    return this.project;
  }

  /**
   * Opens `path` (absolute, or starting with `~`), replacing the open project.
   *
   * Resolves once the folder is known to be readable; the tree follows as events.
   */
  async openProject(path: string): Promise<ProjectInfo> {
    const root = await checkFolder(expandHome(path.trim()));
    await this.closeProject('closed', 'Another project was opened.');
    const project: ProjectInfo = { id: this.nextProjectId++, root, name: basename(root) || root };
    const session = new ProjectSession({ root, logger: this.options.logger, fileSystem: this.options.fileSystem });
    const sessionStore = new DisposableStore();
    sessionStore.add(session);
    sessionStore.add(session.onDidIndexProgress((entriesFound) => this.emit('project:indexing', { projectId: project.id, entriesFound })));
    const history = sessionStore.add(new SaveHistory({ root }));
    const context = { history, outline: null as string | null };
    let primed = false;
    sessionStore.add(
      session.onDidLoadTree((entries) => {
        context.outline = null;
        this.emit('project:tree', { projectId: project.id, entries });
        if (!primed) {
          primed = true;
          void history.prime(entries).catch((error: unknown) => this.options.logger.warn('could not read recently modified files', error));
        }
      }),
    );
    sessionStore.add(
      session.onDidChangeTree((changes) => {
        context.outline = null;
        this.emit('project:changed', { projectId: project.id, changes });
        for (const change of changes) {
          const path = change.type === 'modified' ? change.path : change.type === 'added' ? change.entry.path : null;
          if (path !== null) void this.edits?.noteFileChanged(path);
        }
      }),
    );
    sessionStore.add(
      session.onDidSaveFile((saved) => {
        const ownUntil = this.ownWrites.get(saved);
        if (ownUntil !== undefined && ownUntil > Date.now()) {
          void history.noteOwnWrite(saved);
          return;
        }
        this.ownWrites.delete(saved);
        // Before the current file changes: a bar opened on that event waits for this read.
        void history.noteSaved(saved);
        this.currentFile.noteSaved(saved);
      }),
    );
    sessionStore.add(session.onDidWarn((message) => this.emit('app:notice', { level: 'warning', message })));
    sessionStore.add(session.onDidLoseRoot((message) => void this.closeProject('lost', message, project.id)));
    const edits = await EditService.create({
      root,
      journalFolder: join(dirname(this.options.settings.file), 'journals'),
      inference: this.options.inference,
      buildPrompt: (request) => this.ask.build(request),
      logger: this.options.logger,
      emit: (update) => this.emit('ask:update', update),
      currentFile: () => this.currentFile.value.path,
      onWillWrite: (path) => this.ownWrites.set(path, Date.now() + 2000),
      onWarning: (message) => this.emit('app:notice', { level: 'warning', message }),
    });
    sessionStore.add(edits);
    this.project = project;
    this.session = session;
    this.sessionStore = sessionStore;
    this.edits = edits;
    this.context = context;
    this.emit('project:opened', project);

    const settings = await this.options.settings.addRecent(root).catch((error: unknown) => {
      this.options.logger.warn('could not save the Recent list', error);
      return this.options.settings.value;
    });
    this.emit('recent:changed', { recent: [...settings.recentProjects] });

    void this.options.inference.warm().catch(() => undefined);
    session.start().catch((error: unknown) => {
      const failure = toFlintFailure(error, root);
      void this.closeProject('lost', `Could not index ${root}: ${failure.message}`, project.id);
    });
    return project;
  }

  /** Closes the open project (only if it is still `projectId`, when given). */
  async closeProject(reason: CloseReason, message: string, projectId?: number): Promise<void> {
    const { project, session, sessionStore, edits } = this;
    if (!project || !session || (projectId !== undefined && project.id !== projectId)) return;
    this.project = null;
    this.session = null;
    this.sessionStore = null;
    this.edits = null;
    this.context = null;
    // Files kept aside for late writers are checked before the project goes (and before a reopen recovers it).
    await edits?.finishWrites().catch((error: unknown) => this.options.logger.warn('could not finish checking recent writes', error));
    sessionStore?.dispose();
    await session.close();
    this.currentFile.clear();
    this.emit('project:closed', { projectId: project.id, reason, message });
  }

  /** Closes the project and waits for its watcher to release everything. */
  async shutdown(): Promise<void> {
    await this.closeProject('closed', 'Flint is quitting.');
    await this.options.settings.flush();
    this.dispose();
  }

  dispose(): void {
    this.sessionStore?.dispose();
    this.session = null;
    this.project = null;
    this.store.dispose();
  }

  private askProject(): AskProject | null {
    const { project, session, context } = this;
    if (!project || !session || !context) return null;
    return {
      root: project.root,
      name: project.name,
      history: context.history,
      outline: () => (context.outline ??= projectOutline(project.name, session.entries ?? [])),
    };
  }

  private uiSettings(): UiSettings {
    const { showIgnored, shortcut } = this.options.settings.value;
    return { showIgnored, shortcut };
  }

  private async updateSettings(patch: Partial<UiSettings>): Promise<UiSettings> {
    if (patch.shortcut !== undefined) {
      const parsed = parseAccelerator(patch.shortcut);
      if (!parsed.ok) throw new FlintFailure('invalid-input', parsed.message);
      patch = { ...patch, shortcut: parsed.text };
      // A shortcut the system refuses is not saved: the one that works stays (its status says why).
      if (this.options.hotkey && this.options.hotkey.register(parsed.text).state !== 'registered') {
        const { shortcut: _refused, ...rest } = patch;
        patch = rest;
      }
    }
    await this.options.settings.update(patch);
    if (patch.shortcut !== undefined && !this.options.hotkey) this.emit('hotkey:status', this.hotkeyStatus);
    return this.uiSettings();
  }

  private requireSession(): ProjectSession {
    if (!this.session) throw new FlintFailure('no-project', 'No project is open. Open a folder first.');
    return this.session;
  }

  private emit<C extends EventChannel>(channel: C, payload: EventPayloads[C]): void {
    this._onDidEmit.fire({ channel, payload } as EventEnvelope);
  }
}

function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return path;
}

/** Checks that `path` is a readable folder and returns its real path. */
async function checkFolder(path: string): Promise<string> {
  if (path.includes('\0')) throw new FlintFailure('invalid-input', 'That path contains a NUL byte.');
  if (!isAbsolute(path)) {
    throw new FlintFailure('invalid-input', `Type a full path (like /home/you/project), not ${JSON.stringify(path)}.`);
  }
  try {
    const stats = await stat(path);
    if (!stats.isDirectory()) throw new FlintFailure('not-a-directory', `${path} is a file, not a folder.`);
    const root = await realpath(path);
    await (await opendir(root)).close();
    return root;
  } catch (error) {
    const failure = toFlintFailure(error, path);
    if (failure.code === 'not-found') throw new FlintFailure('not-found', `There is no folder at ${path}.`);
    throw failure;
  }
}
