/**
 * The watch limit in words: which folders are not watched, what Flint does instead, and how
 * to raise the limit on this OS.
 */
import type { WatchLimit } from '../../shared/project-types';
import type { UnwatchedSummary } from './unwatched-folders';

/** What the user reads about `summary` (null: every folder is watched). */
export function describeWatchLimit(summary: UnwatchedSummary | null, platform: NodeJS.Platform = process.platform): WatchLimit | null {
  if (summary === null) return null;
  const { count, examples, code } = summary;
  const named = examples.map((folder) => (folder === '' ? 'the project folder' : folder)).join(', ');
  const more = count > examples.length ? ` and ${(count - examples.length).toLocaleString('en-US')} more` : '';
  const folders = count === 1 ? `1 folder (${named}) is` : `${count.toLocaleString('en-US')} folders (${named}${more}) are`;
  const what = code === 'EMFILE' ? 'The limit on open files was reached' : 'The system’s limit on watched folders was reached';
  const instead =
    `Flint reads them for changes instead: the current file’s folder every ${seconds(summary.fastIntervalMs)}, ` +
    `the others about every ${seconds(summary.roundMs)}.`;
  return { unwatchedFolders: count, examples, message: `${what}: ${folders} not watched. ${instead} ${howToRaise(code, platform)}` };
}

function howToRaise(code: UnwatchedSummary['code'], platform: NodeJS.Platform): string {
  // Plain words: a notice shows text, not Markdown.
  if (code === 'EMFILE') return 'To watch them all, raise the open-file limit (for example, run ulimit -n 65536 before starting Flint), then open the folder again.';
  if (platform === 'linux') {
    return (
      'To watch them all, run sudo sysctl fs.inotify.max_user_watches=1048576 ' +
      '(add fs.inotify.max_user_watches=1048576 to /etc/sysctl.conf to keep it), then open the folder again.'
    );
  }
  return 'To watch them all, hide folders you do not need (.gitignore) or open a smaller folder.';
}

function seconds(ms: number): string {
  return ms < 1000 ? `${(ms / 1000).toLocaleString('en-US')} s` : `${Math.round(ms / 1000).toLocaleString('en-US')} s`;
}
