/**
 * The ask bar's side of main: what a question would be about (the scope the bar
 * shows), pre-warming when the hotkey is pressed, and the prompt each request sends.
 */
import type { AskBlocker, AskFocus, AskScope } from '../../shared/ask-types';
import type { AnswerDepth } from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import { assembleContext, outputReserve, type AssembledContext, type ContextFile } from '../context/context-assembler';
import { languageOf } from '../context/languages';
import type { SaveHistory } from '../context/save-history';
import { byteCounter, estimateCounter, LineTokenCache, loadO200kCounter, tokenizerFamily, utf8Length } from '../context/token-counter';
import { instructionsFor } from './edit-prompt';
import type { FileText } from '../fs/file-text';
import type { InferenceService } from '../inference/inference-service';

/** The open project, as context assembly needs it. */
export interface AskProject {
  root: string;
  name: string;
  /** The project outline (name, top-level folders, languages). */
  outline(): string;
  history: SaveHistory;
}

export interface AskServiceOptions {
  inference: InferenceService;
  project: () => AskProject | null;
  /** The current file and when it became current (a save of the same file is a new one). */
  currentFile: () => { path: string | null; at: number };
  /** An answer is streaming: the hotkey shows it rather than pre-loading another. */
  isStreaming: () => boolean;
}

/** The files and question of one request; texts are what anchoring will use. */
export interface PromptRequest {
  files: ReadonlyArray<{ path: string; text: FileText }>;
  question: string;
  focus: AskFocus;
  depth: AnswerDepth;
}

export interface BuiltPrompt {
  instructions: string;
  input: string;
}

export class AskService {
  private readonly caches = new Map<string, LineTokenCache>();
  /** The preparation in flight: the hotkey in main and the bar opening in the renderer share it. */
  private preparing: { key: string; scope: Promise<AskScope> } | null = null;

  constructor(private readonly options: AskServiceOptions) {}

  /** What the bar would ask about now, and what blocks asking. Reads the current file. */
  async scope(focus: AskFocus = 'recent-change'): Promise<AskScope> {
    return (await this.inspect(focus)).scope;
  }

  /**
   * The hotkey: warms the connection and pre-loads the current file's context with
   * the default focus, so Enter sends only the question. Returns the scope for the bar.
   */
  prepare(focus: AskFocus = 'recent-change'): Promise<AskScope> {
    // Shared only while nothing it depends on has changed: the project, the file, the focus.
    const current = this.options.currentFile();
    const key = [focus, this.options.project()?.root ?? '', current.path ?? '', current.at].join('\u0000');
    if (this.preparing?.key === key) return this.preparing.scope;
    const scope = this.prepareNow(focus);
    const preparing = { key, scope };
    this.preparing = preparing;
    void scope.finally(() => {
      if (this.preparing === preparing) this.preparing = null;
    }).catch(() => undefined);
    return scope;
  }

  private async prepareNow(focus: AskFocus): Promise<AskScope> {
    const inference = this.options.inference;
    const { scope, context } = await this.inspect(focus);
    // Pre-loading opens the connection too; without a context to pre-load, just warm it.
    if (context && !this.options.isStreaming()) void inference.preloadContext(context.instructions).catch(() => undefined);
    else void inference.warm().catch(() => undefined);
    return scope;
  }

  /** The prompt for one request: instructions, project and files within the model's window, then the turn. */
  async build(request: PromptRequest): Promise<BuiltPrompt> {
    const project = this.options.project();
    const files: ContextFile[] = await Promise.all(
      request.files.map(async ({ path, text }) => {
        // The texts were read elsewhere: refuse one that was read while its writer was still writing.
        await project?.history.checkSettled(path, text.lines);
        return { path, lines: text.lines, recentChange: request.focus === 'recent-change' && project ? await project.history.recentChange(path, text.lines) : null };
      }),
    );
    const context = await this.assemble(files, request.question, request.depth);
    return { instructions: context.instructions, input: context.input };
  }

  private async inspect(focus: AskFocus): Promise<{ scope: AskScope; context: AssembledContext | null }> {
    const project = this.options.project();
    const path = project ? this.options.currentFile().path : null;
    const scope: AskScope = {
      project: null,
      path,
      language: path ? languageOf(path) : null,
      lineCount: 0,
      recentChange: null,
      window: null,
      tokens: 0,
      tokenCounting: '',
      blocker: null,
    };
    const blocked = (blocker: AskBlocker) => ({ scope: { ...scope, blocker }, context: null });
    if (!project) return blocked({ kind: 'no-project', message: 'No project is open. Open a folder, then save a file in your editor (or select one here) and ask about it.' });
    scope.project = project.name;
    if (!path) return blocked({ kind: 'no-file', message: 'No current file yet. Save a file in your editor, or select one in the tree, then ask.' });
    let lines: readonly string[] | null;
    try {
      // Never a file read mid-write: a save in progress is waited for (bounded).
      const settled = await project.history.settledLines(path);
      if (settled.kind === 'still-writing') return blocked({ kind: 'file-problem', message: settled.message });
      lines = settled.lines;
    } catch (error) {
      if (!(error instanceof FlintFailure)) throw error;
      return blocked({ kind: 'file-problem', message: error.message });
    }
    if (!lines) return blocked({ kind: 'file-problem', message: `${path} no longer exists (deleted or renamed after it was saved). Save or select another file.` });
    scope.lineCount = lines.length;
    const change = await project.history.recentChange(path, lines);
    scope.recentChange = change?.lines ?? null;
    const missingKey = await this.options.inference.missingKeyMessage();
    if (missingKey) return blocked({ kind: 'no-key', message: missingKey });
    let context: AssembledContext;
    try {
      context = await this.assemble([{ path, lines, recentChange: focus === 'recent-change' ? change : null }], '', 'fast');
    } catch (error) {
      // Expected refusals (too large for the window) are the user's to see; anything else is a bug, logged by the host.
      if (!(error instanceof FlintFailure)) throw error;
      return blocked({ kind: 'file-problem', message: error.message });
    }
    const window = context.windows[0]!;
    return {
      scope: { ...scope, window: { startLine: window.startLine, endLine: window.endLine, truncated: window.truncated }, tokens: context.tokens, tokenCounting: context.tokenCounting },
      context,
    };
  }

  private async assemble(files: readonly ContextFile[], question: string, depth: AnswerDepth): Promise<AssembledContext> {
    const { model, kind, windowTokens } = this.options.inference.modelFor(depth);
    const instructions = instructionsFor(kind);
    const project = this.options.project();
    return assembleContext({
      instructions,
      outline: project?.outline() ?? null,
      files,
      question,
      windowTokens,
      tokens: await this.tokens(tokenizerFamily(model), files, question, windowTokens),
    });
  }

  /**
   * How to count: an estimate for non-OpenAI models; for OpenAI's, bytes (an upper bound)
   * when the files' bytes fill at most three quarters of the room, else the real
   * tokenizer. An ordinary question is far below the margin, so it does not change the
   * method between the pre-load and the send.
   */
  private async tokens(family: 'o200k' | 'estimate', files: readonly ContextFile[], question: string, windowTokens: number): Promise<LineTokenCache> {
    let key: 'o200k' | 'estimate' | 'bytes' = family;
    if (family === 'o200k') {
      const bytes = files.reduce((sum, file) => sum + file.lines.reduce((lineSum, line) => lineSum + utf8Length(line) + 1, 0), utf8Length(question));
      if (bytes <= (windowTokens - outputReserve(windowTokens)) * 0.75) key = 'bytes';
    }
    let cache = this.caches.get(key);
    if (!cache) {
      cache = new LineTokenCache(key === 'o200k' ? await loadO200kCounter() : key === 'bytes' ? byteCounter : estimateCounter);
      this.caches.set(key, cache);
    }
    return cache;
  }
}
