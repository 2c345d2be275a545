/**
 * The project in a few lines for the prompt: its name, top-level folders (with file
 * counts) and main languages. Built from the tree Flint already has; no reads.
 */
import type { TreeEntry } from '../../shared/project-types';
import { isCodeLanguage, languageOf } from './languages';

const MAX_FOLDERS = 12;
const MAX_LANGUAGES = 3;

export function projectOutline(name: string, entries: readonly TreeEntry[]): string {
  const folderFiles = new Map<string, number>();
  const languageFiles = new Map<string, number>();
  let rootFiles = 0;
  let codeFiles = 0;
  for (const entry of entries) {
    if (entry.ignored) continue;
    const slash = entry.path.indexOf('/');
    if (entry.kind === 'directory' && slash === -1) folderFiles.set(entry.path, folderFiles.get(entry.path) ?? 0);
    if (entry.kind !== 'file') continue;
    if (slash === -1) rootFiles += 1;
    else {
      const top = entry.path.slice(0, slash);
      folderFiles.set(top, (folderFiles.get(top) ?? 0) + 1);
    }
    const language = languageOf(entry.path);
    if (language && isCodeLanguage(language)) {
      languageFiles.set(language, (languageFiles.get(language) ?? 0) + 1);
      codeFiles += 1;
    }
  }
  const folders = [...folderFiles].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = folders.slice(0, MAX_FOLDERS).map(([folder, files]) => `${folder}/ (${files} ${files === 1 ? 'file' : 'files'})`);
  if (folders.length > MAX_FOLDERS) shown.push(`${folders.length - MAX_FOLDERS} more`);
  const languages = [...languageFiles]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_LANGUAGES)
    .map(([language, files]) => `${language} ${Math.round((files / codeFiles) * 100)}%`);
  return [
    `Project: ${name}`,
    `Top-level folders: ${shown.length > 0 ? shown.join(', ') : 'none'}; ${rootFiles} ${rootFiles === 1 ? 'file' : 'files'} at the root.`,
    `Languages: ${languages.length > 0 ? languages.join(', ') : 'unknown'}.`,
  ].join('\n');
}
