/**
 * Flint's main-process core: the app-wide state (settings, Recent, the shortcut, the last
 * latency figures) and the request-handler table, behind the contract. Nothing per
 * project lives here: the open project is the workspace's one slot.
 *
 * Both shells construct one through createFlintCore and bind its `handlers` and
 * `onDidEmit`; neither holds logic of its own. Nothing here imports electron: what only
 * a shell can do (a native folder dialog, the system-wide shortcut) comes in as an option.
 */
import { performance } from 'node:perf_hooks';
import { parseAccelerator } from '../../shared/accelerator';
import type { AskOpenRequest, HotkeyStatus } from '../../shared/ask-types';
import type { AppInfo, EventEnvelope, UiSettings } from '../../shared/contract';
import type { LatencyFigures } from '../../shared/inference-types';
import type { CloseReason, ProjectInfo } from '../../shared/project-types';
import { FlintFailure } from '../../shared/result';
import type { AnswerService } from '../ask/answer-service';
import type { AskService } from '../ask/ask-service';
import type { RequestHandlers } from '../contract-host';
import type { InferenceService } from '../inference/inference-service';
import { DisposableStore, Emitter, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import { NO_CURRENT_FILE } from '../project/current-file';
import type { SettingsStore } from '../settings/settings-store';
import type { Workspace } from '../workspace/workspace';
import { createAnswerHandlers } from './answer-handlers';
import { createInferenceHandlers, forwardInferenceEvents } from './inference-handlers';
import { forwardProjectEvents } from './project-events';
import { UiEvents } from './ui-events';

export interface FlintCoreOptions {
  shell: AppInfo['shell'];
  version: string;
  /** See AppInfo['askCommand']. */
  askCommand: string;
  settings: SettingsStore;
  logger: Logger;
  inference: InferenceService;
  workspace: Workspace;
  ask: AskService;
  answers: AnswerService;
  /** Shows a native folder picker; absent in shells without one. Resolves null if cancelled. */
  chooseFolder?: () => Promise<string | null>;
  /** The system-wide shortcut (Electron). Without one, the shortcut works inside the app only. */
  hotkey?: HotkeyHost;
}

/** What the core needs of the system-wide shortcut (GlobalHotkey in Electron). */
export interface HotkeyHost {
  readonly status: HotkeyStatus;
  register(accelerator: string): HotkeyStatus;
  readonly onDidChangeStatus: Event<HotkeyStatus>;
}

export class FlintCore implements Disposable {
  private lastLatency: LatencyFigures | null = null;
  private readonly store = new DisposableStore();
  private readonly ui = this.store.add(new UiEvents());
  private readonly _onDidChangeRecent = this.store.add(new Emitter<string[]>());

  /** Every event for the UI, in order. Shells forward these to their renderers. */
  readonly onDidEmit: Event<EventEnvelope> = this.ui.onDidEmit;
  /** The Recent list changed (the Electron menu lists it). */
  readonly onDidChangeRecent: Event<string[]> = this._onDidChangeRecent.event;
  readonly handlers: RequestHandlers;
  readonly workspace: Workspace;

  constructor(private readonly options: FlintCoreOptions) {
    const { inference, workspace, hotkey } = options;
    this.workspace = workspace;
    this.store.add(workspace.onDidOpen((project) => {
      this.ui.emit('project:opened', project.info);
      forwardProjectEvents(project, this.ui);
    }));
    this.store.add(workspace.onDidClose((closed) => {
      // Said only once no project is open (an open waiting its turn comes after this close).
      if (!workspace.project) this.ui.emit('currentFile:changed', NO_CURRENT_FILE);
      this.ui.emit('project:closed', closed);
    }));
    this.store.add(options.answers.onDidUpdate((update) => this.ui.emit('ask:update', update)));
    this.store.add(options.answers.onDidChangeList((summaries) => this.ui.emit('ask:conversations', summaries)));
    this.store.add(options.answers.onDidNotice((message) => this.ui.emit('app:notice', { level: 'warning', message })));
    if (hotkey) {
      this.store.add(hotkey.onDidChangeStatus((status) => this.ui.emit('hotkey:status', status)));
      hotkey.register(options.settings.value.shortcut);
    }
    for (const subscription of forwardInferenceEvents(inference, (channel, payload) => this.ui.emit(channel, payload), (figures) => (this.lastLatency = figures))) {
      this.store.add(subscription);
    }
    // Latency is the product: open the model connection before anyone asks.
    void inference.warm().catch((error: unknown) => options.logger.warn('could not warm the model connection', error));
    this.handlers = this.createHandlers();
  }

  /** The Recent list, most recent first. */
  get recentProjects(): string[] {
    return [...this.options.settings.value.recentProjects];
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

  /**
   * Opens the ask bar in the renderer (the system-wide shortcut, the tray, `flint --ask`)
   * and, at the same time, warms the connection and pre-loads the current file.
   */
  openAskBar(trigger: AskOpenRequest['trigger']): void {
    const atEpochMs = performance.timeOrigin + performance.now();
    // The bar first: the lookup may start child processes (xprop, xclip, get-windows), and
    // spawning one blocks main for milliseconds the bar's paint would wait for. Still before
    // Flint's own window takes the focus (the shell shows it once this returns); the bar
    // does not wait for the lookup, its scope does.
    this.ui.emit('ask:open', { trigger, atEpochMs });
    if (trigger !== 'tray') this.options.ask.lookUpDesktop();
    void this.options.ask.prepare('recent-change').catch((error: unknown) => this.options.logger.warn('could not prepare the ask bar', error));
  }

  /** Opens `path` (absolute, or starting with `~`), replacing the open project, and puts it first in Recent. */
  async openProject(path: string): Promise<ProjectInfo> {
    const project = await this.options.workspace.open(path);
    const settings = await this.options.settings.addRecent(project.root).catch((error: unknown) => {
      this.options.logger.warn('could not save the Recent list', error);
      return this.options.settings.value;
    });
    this.recentChanged(settings.recentProjects);
    void this.options.inference.warm().catch(() => undefined);
    return project.info;
  }

  closeProject(reason: CloseReason, message: string): Promise<void> {
    return this.options.workspace.close(reason, message);
  }

  /** Closes the project, waits for its watcher to let go, saves settings. */
  async shutdown(): Promise<void> {
    await this.closeProject('closed', 'Flint is quitting.');
    await this.options.answers.flush();
    await this.options.settings.flush();
    this.dispose();
  }

  dispose(): void {
    this.options.answers.dispose();
    this.options.workspace.dispose();
    this.options.inference.dispose();
    this.options.ask.dispose();
    this.store.dispose();
  }

  private createHandlers(): RequestHandlers {
    const { options, workspace } = this;
    return {
      ...createInferenceHandlers(options.inference),
      ...createAnswerHandlers(options.ask, options.answers, workspace),
      getAppInfo: async () => ({ shell: options.shell, canChooseFolder: options.chooseFolder !== undefined, version: options.version, askCommand: options.askCommand }),
      getAppState: async () => ({
        project: workspace.project?.info ?? null,
        tree: workspace.project?.topLevel ?? null,
        entryCount: workspace.project?.entryCount ?? null,
        sizeWarning: workspace.project?.sizeWarning ?? null,
        watchLimit: workspace.project?.watchLimit ?? null,
        currentFile: workspace.project?.currentFile.value ?? NO_CURRENT_FILE,
        recent: this.recentProjects,
        settings: this.uiSettings(),
        connection: { providerId: options.inference.activeProviderId, ...options.inference.connectionState },
        lastLatency: this.lastLatency,
        hotkey: this.hotkeyStatus,
      }),
      openProject: ({ path }) => this.openProject(path),
      chooseProjectFolder: async () => {
        if (!options.chooseFolder) throw new FlintFailure('unsupported', 'This shell has no folder dialog; type the folder path instead.');
        const chosen = await options.chooseFolder();
        return chosen === null ? null : this.openProject(chosen);
      },
      closeProject: async () => {
        await this.closeProject('closed', 'Project closed.');
        return null;
      },
      openProjectAnyway: async ({ projectId }) => {
        // A late click for a project closed since does nothing.
        if (workspace.project?.info.id === projectId) workspace.project.openAnyway();
        return null;
      },
      listDirectory: ({ path }) => workspace.requireProject().listDirectory(path),
      findFiles: async ({ query, showIgnored, limit }) => workspace.requireProject().findFiles(query, showIgnored, limit),
      suggestFiles: async ({ query }) => workspace.requireProject().suggestFiles(query),
      readFile: ({ path }) => workspace.requireProject().files.readForView(path),
      selectFile: ({ path }) => workspace.requireProject().select(path),
      switchCurrentFile: async () => {
        const { currentFile } = workspace.requireProject();
        if (!currentFile.switchToOther()) throw new FlintFailure('invalid-input', 'There is no other file to switch to: only one file was focused, saved or selected.');
        return currentFile.value;
      },
      removeRecent: async ({ path }) => this.recentChanged((await options.settings.removeRecent(path)).recentProjects),
      updateSettings: (patch) => this.updateSettings(patch),
    };
  }

  private recentChanged(recentProjects: readonly string[]): string[] {
    const recent = [...recentProjects];
    this.ui.emit('recent:changed', { recent });
    this._onDidChangeRecent.fire(recent);
    return [...recent];
  }

  private uiSettings(): UiSettings {
    const { showIgnored, shortcut, clipboardSelection, exclude } = this.options.settings.value;
    return { showIgnored, shortcut, clipboardSelection, exclude: [...exclude] };
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
    if (patch.exclude !== undefined) this.options.workspace.project?.setExclude(patch.exclude);
    if (patch.shortcut !== undefined && !this.options.hotkey) this.ui.emit('hotkey:status', this.hotkeyStatus);
    return this.uiSettings();
  }
}
