/**
 * The files a question names with `@path`, resolved and read by main (the renderer only
 * suggests): each through the project's one path policy and bounded reader, each
 * problem a message of its own that never blocks the other mentions or the question.
 * Which `@words` count as mentions at all: src/shared/mentions.ts.
 */
import { stat } from 'node:fs/promises';
import { firstSegment, parseMentions, type Mention, type MentionStatus } from '../../shared/mentions';
import { FlintFailure } from '../../shared/result';
import type { FileText } from '../fs/file-text';
import { lexicalRefusal, type ProjectFiles } from '../fs/project-files';

/** More named files than this in one question are cut: each costs a read and a share of the window. */
export const MAX_NAMED_FILES = 8;

export interface NamedFile {
  path: string;
  text: FileText;
}

export interface NamedFiles {
  /** The files to send, in the order named, each once. */
  files: NamedFile[];
  /** One per mention that is one (prose like `@Component` has none), in order. */
  statuses: MentionStatus[];
}

type Resolution = { kind: 'prose' } | { kind: 'refused'; path: string | null; message: string } | { kind: 'file'; path: string; text: FileText };

/**
 * Resolves the mentions in `texts` (a question, or the mentions the bar found in a
 * draft). `exclude`: files the question already sends (the current file) — named again,
 * they count as sent, not twice.
 */
export async function resolveNamedFiles(files: ProjectFiles, texts: string | readonly string[], exclude: readonly string[] = []): Promise<NamedFiles> {
  const mentions = parseMentions(typeof texts === 'string' ? texts : texts.join(' '));
  const named: NamedFile[] = [];
  const statuses: MentionStatus[] = [];
  const seen = new Set<string>();
  const seenText = new Set<string>();
  for (const mention of mentions) {
    if (seenText.has(mention.text)) continue;
    seenText.add(mention.text);
    const shown = `@${mention.text}`;
    const resolved = await resolveMention(files, mention);
    if (resolved.kind === 'prose') continue;
    if (resolved.kind === 'refused') {
      statuses.push({ mention: shown, path: resolved.path, state: 'refused', message: resolved.message });
      continue;
    }
    // Spelled two ways (`./src/a.ts`, `src/a.ts`): sent once. The file already asked about is listed, not sent twice.
    if (seen.has(resolved.path)) continue;
    seen.add(resolved.path);
    if (exclude.includes(resolved.path)) {
      statuses.push({ mention: shown, path: resolved.path, state: 'sent', lineCount: resolved.text.lines.length });
      continue;
    }
    if (named.length >= MAX_NAMED_FILES) {
      statuses.push({ mention: shown, path: resolved.path, state: 'cut', message: `Left out: at most ${MAX_NAMED_FILES} files can be named in one question.` });
      continue;
    }
    named.push({ path: resolved.path, text: resolved.text });
    statuses.push({ mention: shown, path: resolved.path, state: 'sent', lineCount: resolved.text.lines.length });
  }
  return { files: named, statuses };
}

async function resolveMention(files: ProjectFiles, mention: Mention): Promise<Resolution> {
  const { text } = mention;
  // Rule 4: a word is a mention only when the project has an entry of that name.
  if (!mention.isPathShaped && !(await hasEntry(files, firstSegment(text)))) return { kind: 'prose' };
  const refused = (message: string, path: string | null = null): Resolution => ({ kind: 'refused', path, message });
  if (/^~([\\/]|$)/.test(text)) return refused(`@${text} is in your home folder, outside the project: name a file inside the project.`);
  const lexical = lexicalRefusal(text, 'model');
  if (lexical !== null) {
    // `.git` has its own words; anything else lexically refused is a way out of the project.
    return refused(/\.git/.test(lexical) ? withoutRefusedPrefix(lexical) : `@${text} is outside the project: name a file inside it (no "..", no absolute paths).`);
  }
  let target;
  try {
    target = await files.resolve(text, 'model');
  } catch (error) {
    if (!(error instanceof FlintFailure)) throw error;
    return refused(withoutRefusedPrefix(error.message));
  }
  const path = target.relativePath;
  if (!target.exists) return refused(`${path} does not exist in the project.`, path);
  // What kind of entry it is, on the path the policy resolved (symlinks already checked).
  const entry = await stat(target.absolutePath).catch(() => null);
  if (entry?.isDirectory()) return refused(`${path} is a folder — name a file in it (@${path}/…).`, path);
  try {
    const read = await files.readText(path);
    if (read === null) return refused(`${path} does not exist in the project.`, path);
    return { kind: 'file', path, text: read };
  } catch (error) {
    if (!(error instanceof FlintFailure)) throw error;
    if (/ is binary/.test(error.message)) return refused(`${path} is binary — only text files can be sent to the model.`, path);
    return refused(withoutRefusedPrefix(error.message), path);
  }
}

/** Whether the project has an entry named `segment` at its root (a link counts, wherever it points). */
async function hasEntry(files: ProjectFiles, segment: string): Promise<boolean> {
  if (lexicalRefusal(segment, 'user') !== null) return false;
  try {
    await files.resolve(segment, 'user');
    return true;
  } catch (error) {
    // Only "not there" means prose; a link out of the project is there, and gets refused as a mention.
    return !(error instanceof FlintFailure && error.code === 'not-found');
  }
}

function withoutRefusedPrefix(message: string): string {
  return message.replace(/^Refused: /, '');
}
