/**
 * The instructions every request starts with. One prompt serves questions and change
 * requests: the model answers a question in Markdown, and writes a change as edits in
 * a precise format (never whole files), so Flint needs no guess at which one was meant.
 * The context (project, files, the question) is assembled in ../context.
 */
import type { ProviderKind } from '../../shared/inference-types';

/** V4A for OpenAI Codex models (what they are trained on); search/replace for others. */
export type EditFormat = 'v4a' | 'search-replace';

const COMMON = `You are Flint, a pair programmer working in the user's project, beside their editor.
If the user asks a question, answer it concisely in Markdown (code in fenced blocks with a language) and make no edits.
If the user asks for a change, make exactly that change with the smallest correct edits: write at most two short sentences, then the edits. Never rewrite whole files. Paths are relative to the project root. Every file shown under a "File: <path>" heading (the one asked about, and any the user named with @path) may be edited: use that exact path. Lines marked "… (lines a–b not shown) …" are elided; never copy them into an edit.`;

const V4A = `${COMMON}

Write edits as one patch in this exact format:
*** Begin Patch
*** Update File: <path>
@@ <optional: a line just above the change, such as the enclosing function>
 <unchanged context line: 1 to 3 around each change, prefixed by one space>
-<removed line>
+<added line>
*** End Patch
Use "*** Add File: <path>" followed by "+" lines for a new file, and "*** Delete File: <path>" to delete one. Start a new "@@" for each separate change.`;

const SEARCH_REPLACE = `${COMMON}

Write each edit as a search/replace block: the file path alone on a line, then
<<<<<<< SEARCH
<the exact lines to find, copied from the file>
=======
<the lines to put in their place>
>>>>>>> REPLACE
Keep each SEARCH block short but unique in its file.`;

function editInstructions(format: EditFormat): string {
  return format === 'v4a' ? V4A : SEARCH_REPLACE;
}

/** The edit format a provider's models are asked for: V4A on the Responses API (Codex models), search/replace elsewhere. */
export function editFormatFor(kind: ProviderKind): EditFormat {
  return kind === 'openai-responses' ? 'v4a' : 'search-replace';
}

/** The instructions a request to a provider of `kind` starts with. */
export function instructionsFor(kind: ProviderKind): string {
  return editInstructions(editFormatFor(kind));
}
