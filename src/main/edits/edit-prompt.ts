/**
 * The edit prompt: stable instructions first (so provider prompt caches hit), then the
 * files, then the request. Edits are asked for in a precise format, never whole files.
 */

/** V4A for OpenAI Codex models (what they are trained on); search/replace for others. */
export type EditFormat = 'v4a' | 'search-replace';

const COMMON = `You are Flint, a pair programmer working in the user's project. Make exactly the requested change with the smallest correct edits. Never rewrite whole files. Paths are relative to the project root. Write at most two short sentences of prose, then the edits.`;

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

export function editInstructions(format: EditFormat): string {
  return format === 'v4a' ? V4A : SEARCH_REPLACE;
}

export interface PromptFile {
  path: string;
  text: string;
}

export function editInput(files: readonly PromptFile[], request: string): string {
  const sections = files.map((file) => `File: ${file.path}\n\`\`\`\n${file.text}\n\`\`\``);
  return `${sections.join('\n\n')}\n\nRequest: ${request}`;
}
