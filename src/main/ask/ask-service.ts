/**
 * The ask bar's side of main: what a question would be about (the scope the bar shows)
 * and pre-warming when the hotkey is pressed. The prompts themselves: prompt-builder.ts.
 */
import type { AskBlocker, AskFocus, AskScope } from '../../shared/ask-types';
import { FlintFailure } from '../../shared/result';
import type { AssembledContext } from '../context/context-assembler';
import { languageOf } from '../context/languages';
import type { InferenceService } from '../inference/inference-service';
import type { CurrentFile } from '../../shared/project-types';
import type { DesktopLookup } from './desktop-lookup';
import { resolveNamedFiles } from './mentions';
import { assembleWithNamed, NO_FILE_NOTE, projectScope, scopeRequestKey, type ScopeRequest } from './project-question';
import type { AskProject, PromptBuilder } from './prompt-builder';

export interface AskServiceOptions {
  inference: InferenceService;
  prompts: PromptBuilder;
  project: () => AskProject | null;
  /** The current file and when it became current (a save of the same file is a new one). */
  currentFile: () => CurrentFile;
  /** The focused window and the selection, read when the shortcut is pressed. */
  desktop: DesktopLookup;
  /** An answer is streaming: the hotkey shows it rather than pre-loading another. */
  isStreaming: () => boolean;
}

export class AskService {
  /** The preparation in flight: the hotkey in main and the bar opening in the renderer share it. */
  private preparing: { key: string; scope: Promise<AskScope> } | null = null;

  constructor(private readonly options: AskServiceOptions) {}

  /** What the bar would ask about now, and what blocks asking. Reads the current file. */
  async scope(focus: AskFocus = 'recent-change', request: ScopeRequest = {}): Promise<AskScope> {
    return (await this.inspect(focus, request)).scope;
  }

  /**
   * The hotkey: warms the connection and pre-loads the current file's context with
   * the default focus, so Enter sends only the question. Returns the scope for the bar.
   */
  async prepare(focus: AskFocus = 'recent-change', request: ScopeRequest = {}): Promise<AskScope> {
    // The shortcut's lookup of the focused window decides which file this is about.
    await this.options.desktop.settled();
    return this.prepareShared(focus, request);
  }

  /** Reads the focused window and the selection now (the system-wide shortcut, `flint --ask`). */
  lookUpDesktop(): void {
    this.options.desktop.begin();
  }

  dispose(): void {
    this.options.desktop.dispose();
  }

  private prepareShared(focus: AskFocus, request: ScopeRequest): Promise<AskScope> {
    // Shared only while nothing it depends on has changed: the project, the file, the focus, the subject and mentions, the shortcut's lookup.
    const current = this.options.currentFile();
    const key = [focus, this.options.project()?.root ?? '', current.path ?? '', current.at, scopeRequestKey(request), this.options.desktop.generation].join('\u0000');
    if (this.preparing?.key === key) return this.preparing.scope;
    const scope = this.prepareNow(focus, request);
    const preparing = { key, scope };
    this.preparing = preparing;
    void scope.finally(() => {
      if (this.preparing === preparing) this.preparing = null;
    }).catch(() => undefined);
    return scope;
  }

  private async prepareNow(focus: AskFocus, request: ScopeRequest): Promise<AskScope> {
    const inference = this.options.inference;
    const { scope, context } = await this.inspect(focus, request);
    // Pre-loading opens the connection too; without a context to pre-load, just warm it.
    if (context && !this.options.isStreaming()) void inference.preloadContext(context.instructions).catch(() => undefined);
    else void inference.warm().catch(() => undefined);
    return scope;
  }

  private async inspect(focus: AskFocus, request: ScopeRequest): Promise<{ scope: AskScope; context: AssembledContext | null }> {
    const project = this.options.project();
    const current = this.options.currentFile();
    const path = project ? current.path : null;
    const scope: AskScope = {
      project: null,
      path,
      source: project ? current.source : null,
      editor: current.editor ?? null,
      other: current.other ?? null,
      windowNote: current.windowNote ?? null,
      selection: null,
      selectionNote: null,
      language: path ? languageOf(path) : null,
      lineCount: 0,
      recentChange: null,
      window: null,
      tokens: 0,
      tokenCounting: '',
      blockers: [],
      subject: 'file',
      subjectNote: null,
      mentions: [],
    };
    // Looked up whatever else blocks: the bar names every missing step at once, not one per attempt.
    const missingKey = await this.options.inference.missingKeyMessage();
    const keyBlockers: AskBlocker[] = missingKey ? [{ kind: 'no-key', message: missingKey }] : [];
    const blocked = (blocker: AskBlocker | null) => ({ scope: { ...scope, blockers: blocker ? [blocker, ...keyBlockers] : keyBlockers }, context: null });
    if (!project) return blocked({ kind: 'no-project', message: 'No project is open. Open a folder, then save a file in your editor (or select one here) and ask about it.' });
    scope.project = project.name;
    // Without a file to send (none, or one that cannot be), the question is about the project.
    const aboutProject = (note: string | null) => this.aboutProject(scope, project, request, note, keyBlockers);
    if (request.subject === 'project' || !path) return aboutProject(path ? null : NO_FILE_NOTE);
    let lines: readonly string[] | null;
    try {
      // Never a file read mid-write: a save in progress is waited for (bounded).
      const settled = await project.history.settledLines(path);
      if (settled.kind === 'still-writing') return blocked({ kind: 'file-problem', message: settled.message });
      lines = settled.lines;
    } catch (error) {
      if (!(error instanceof FlintFailure)) throw error;
      return aboutProject(`${error.message} Asking about the project instead.`);
    }
    if (!lines) return aboutProject(`${path} no longer exists (deleted or renamed after it was saved): asking about the project instead.`);
    scope.lineCount = lines.length;
    const change = await project.history.recentChange(path, lines);
    scope.recentChange = change?.lines ?? null;
    const selection = this.options.desktop.selectionIn(path, lines);
    if (selection?.kind === 'lines') scope.selection = { startLine: selection.startLine, endLine: selection.endLine };
    else if (selection?.kind === 'note') scope.selectionNote = selection.message;
    if (missingKey) return blocked(null);
    let context: AssembledContext;
    let mentions: AskScope['mentions'];
    try {
      const named = await resolveNamedFiles(project.files, request.mentions ?? [], [path]);
      const selected = focus === 'selection' ? scope.selection : null;
      ({ context, mentions } = await assembleWithNamed(this.options.prompts, [{ path, lines, recentChange: focus === 'recent-change' ? change : null, selection: selected }], named));
    } catch (error) {
      // Expected refusals (too large for the window) are the user's to see; anything else is a bug, logged by the host.
      if (!(error instanceof FlintFailure)) throw error;
      return blocked({ kind: 'file-problem', message: error.message });
    }
    const window = context.windows[0]!;
    return {
      scope: { ...scope, mentions, window: { startLine: window.startLine, endLine: window.endLine, truncated: window.truncated }, tokens: context.tokens, tokenCounting: context.tokenCounting },
      context,
    };
  }

  /** The scope of a question about the project (a missing key still blocks it). */
  private async aboutProject(scope: AskScope, project: AskProject, request: ScopeRequest, note: string | null, keyBlockers: AskBlocker[]): Promise<{ scope: AskScope; context: AssembledContext | null }> {
    const base: AskScope = { ...scope, blockers: keyBlockers };
    if (keyBlockers.length > 0) return { scope: { ...base, path: null, language: null, lineCount: 0, subject: 'project', subjectNote: note }, context: null };
    return projectScope(base, project, this.options.prompts, request, note);
  }
}
