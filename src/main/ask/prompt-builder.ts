/**
 * The prompt every request sends: the instructions for the provider's edit format, the
 * project's outline and files fitted into the model's window, then the question. Used by
 * the ask bar (to pre-load and to show the scope) and by every answer and redirect.
 */
import type { AskFocus, LineRange } from '../../shared/ask-types';
import type { AnswerDepth } from '../../shared/inference-types';
import { assembleContext, outputReserve, type AssembledContext, type ContextFile } from '../context/context-assembler';
import type { SaveHistory } from '../context/save-history';
import { byteCounter, estimateCounter, LineTokenCache, loadO200kCounter, tokenizerFamily, utf8Length } from '../context/token-counter';
import type { FileText } from '../fs/file-text';
import type { ProjectFiles } from '../fs/project-files';
import type { InferenceService } from '../inference/inference-service';
import { instructionsFor } from './instructions';

/** The open project, as context assembly needs it. */
export interface AskProject {
  root: string;
  name: string;
  /** The project outline (name, top-level folders, languages). */
  outline(): string;
  history: SaveHistory;
  /** The project's path policy and reader (the files a question names with `@path`). */
  files: ProjectFiles;
}

/** The files and question of one request; texts are what anchoring will use. */
export interface PromptRequest {
  /** `named`: named with `@path` besides the file asked about: cut for room rather than refused. */
  files: ReadonlyArray<{ path: string; text: FileText; named?: boolean }>;
  question: string;
  focus: AskFocus;
  /** With focus `selection`: the lines the user selected, in which file. */
  selection?: { path: string } & LineRange;
  depth: AnswerDepth;
}

export interface BuiltPrompt {
  instructions: string;
  input: string;
}

export interface PromptBuilderOptions {
  inference: InferenceService;
  project: () => AskProject | null;
}

export class PromptBuilder {
  /** Token counts per line, by counting method: kept across requests (a line is counted once). */
  private readonly caches = new Map<string, LineTokenCache>();

  constructor(private readonly options: PromptBuilderOptions) {}

  /** The prompt for one request: instructions, project and files within the model's window, then the turn. */
  async build(request: PromptRequest): Promise<BuiltPrompt> {
    const project = this.options.project();
    const files: ContextFile[] = await Promise.all(
      request.files.map(async ({ path, text, named }) => {
        // The texts were read elsewhere: refuse one that was read while its writer was still writing.
        await project?.history.checkSettled(path, text.lines);
        // A named file is there to be read whole (its window from the top), not for its last save.
        if (named) return { path, lines: text.lines, recentChange: null, optional: true };
        const recentChange = request.focus === 'recent-change' && project ? await project.history.recentChange(path, text.lines) : null;
        return { path, lines: text.lines, recentChange, selection: request.focus === 'selection' ? selectionIn(request.selection, path, text.lines.length) : null };
      }),
    );
    const context = await this.assemble(files, request.question, request.depth);
    return { instructions: context.instructions, input: context.input };
  }

  /** The instructions, outline and files within the model's window, and the question. */
  async assemble(files: readonly ContextFile[], question: string, depth: AnswerDepth): Promise<AssembledContext> {
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

/** The selection, if it is of `path` and within its `lineCount` lines (the renderer's word is checked, not trusted). */
function selectionIn(selection: PromptRequest['selection'], path: string, lineCount: number): LineRange | null {
  if (!selection || selection.path !== path) return null;
  const { startLine, endLine } = selection;
  return startLine >= 1 && startLine <= endLine && endLine <= lineCount ? { startLine, endLine } : null;
}
