/**
 * Questions beyond the current file: "Ask about the project" (the outline, and the files
 * the question names with `@path`), and named files beside the current one. Kept apart
 * from AskService and AnswerService so each of those only decides *when* to use it.
 *
 * A missing, binary or otherwise unreadable current file no longer blocks a question:
 * it becomes a question about the project, and the bar says why.
 */
import type { AskScope, AskSubject } from '../../shared/ask-types';
import type { MentionStatus } from '../../shared/mentions';
import { FlintFailure } from '../../shared/result';
import type { AssembledContext, ContextFile } from '../context/context-assembler';
import type { OpenProject } from '../workspace/open-project';
import { resolveNamedFiles, type NamedFiles } from './mentions';
import type { AskProject, PromptBuilder } from './prompt-builder';
import { promptFiles, type PromptFile } from './turn-sender';

/** What the bar asks main to describe besides the focus. */
export interface ScopeRequest {
  /** The user chose "Ask about the project" (default: the current file, when there is one). */
  subject?: AskSubject;
  /** The draft's `@path` mentions, as typed. */
  mentions?: readonly string[];
}

/** Told when there is no current file at all. */
export const NO_FILE_NOTE = 'No current file: asking about the project (its outline, and any files you name with @path).';

/** A key for what a scope depends on besides the project and the current file. */
export function scopeRequestKey(request: ScopeRequest): string {
  return [request.subject ?? 'file', ...(request.mentions ?? [])].join('\u0001');
}

/**
 * The context with `base` (the current file, or nothing) and the named files after it, and
 * what became of each mention once the window was shared (partial, cut).
 */
export async function assembleWithNamed(prompts: PromptBuilder, base: readonly ContextFile[], named: NamedFiles): Promise<{ context: AssembledContext; mentions: MentionStatus[] }> {
  const files = [...base, ...named.files.map((file): ContextFile => ({ path: file.path, lines: file.text.lines, recentChange: null, optional: true }))];
  const context = await prompts.assemble(files, '', 'fast');
  return { context, mentions: budgeted(named.statuses, context) };
}

/** The statuses with the window's verdict: a named file cut for room, or sent in part. */
export function budgeted(statuses: readonly MentionStatus[], context: AssembledContext): MentionStatus[] {
  return statuses.map((status) => {
    if (status.state !== 'sent' || status.path === null) return status;
    if (context.cut.includes(status.path)) return { ...status, state: 'cut', message: `No room left in the model's window: ${status.path} was left out.` };
    const window = context.windows.find((candidate) => candidate.path === status.path);
    if (!window?.truncated) return status;
    const lines = `lines ${window.startLine.toLocaleString('en-US')}–${window.endLine.toLocaleString('en-US')} of ${window.totalLines.toLocaleString('en-US')}`;
    return { ...status, state: 'partial', message: `Only ${lines} fit (the window is shared with the other files).` };
  });
}

/**
 * The scope of a question about the project: no current file, the outline, the named
 * files. `base` is the scope so far (project name, the blocker checks done by the caller).
 */
export async function projectScope(base: AskScope, project: AskProject, prompts: PromptBuilder, request: ScopeRequest, note: string | null): Promise<{ scope: AskScope; context: AssembledContext | null }> {
  const scope: AskScope = { ...base, path: null, language: null, lineCount: 0, recentChange: null, window: null, subject: 'project', subjectNote: note };
  try {
    const { context, mentions } = await assembleWithNamed(prompts, [], await resolveNamedFiles(project.files, request.mentions ?? []));
    return { scope: { ...scope, mentions, tokens: context.tokens, tokenCounting: context.tokenCounting }, context };
  } catch (error) {
    if (!(error instanceof FlintFailure)) throw error;
    return { scope: { ...scope, blockers: [{ kind: 'file-problem', message: error.message }] }, context: null };
  }
}

/**
 * The files a new question sends: `paths` (checked: the renderer's paths are untrusted),
 * else the current file unless the subject is the project — or none, when it cannot be
 * read (binary, gone) — and, after them, the files its words name with `@path`.
 */
export async function questionFiles(project: OpenProject, input: { prompt: string; paths?: readonly string[]; subject?: AskSubject }): Promise<{ files: PromptFile[]; named: PromptFile[] }> {
  let files: PromptFile[] = [];
  if (input.subject !== 'project') files = input.paths?.length ? await promptFiles(project, input.paths) : await currentFileIfReadable(project);
  return { files, named: await namedPromptFiles(project, input.prompt, files) };
}

/** The files `texts` name with `@path`, besides `sent` (marked named: cut for room rather than refused). */
export async function namedPromptFiles(project: OpenProject, texts: string | readonly string[], sent: readonly PromptFile[]): Promise<PromptFile[]> {
  const named = await resolveNamedFiles(project.files, texts, sent.map((file) => file.path));
  return named.files.map((file) => ({ ...file, named: true }));
}

async function currentFileIfReadable(project: OpenProject): Promise<PromptFile[]> {
  const current = project.currentFile.value.path;
  if (current === null) return [];
  try {
    return await promptFiles(project, [current]);
  } catch (error) {
    // The bar said so already ("asking about the project instead").
    if (error instanceof FlintFailure) return [];
    throw error;
  }
}
