/**
 * A ProjectSession in a process of its own, for the watch-limit test: run inside a user
 * namespace whose inotify limit the parent lowered, so the kernel itself refuses the
 * watches. Prints what the session reports, one JSON line each: `unwatched` (the summary),
 * `changes`, `save`, `watching` (the watcher covers what it can). Reads commands, one JSON
 * line each: `{ "focus": [folders] }`. Argument: the project root; FLINT_TEST_POLLING (JSON) sets
 * the polling options. Ends when stdin closes.
 */
import { createInterface } from 'node:readline';
import { createMemoryLogger } from '../../src/main/logger';
import { ProjectSession } from '../../src/main/project/project-session';

const root = process.argv[2]!;
const print = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);
// Slow rounds every few hundred ms rather than seconds (the test waits on events, and sooner), unless the test says otherwise.
const polling = { fastIntervalMs: 50, slowTickMs: 50, slowRoundMinMs: 300, ...(JSON.parse(process.env.FLINT_TEST_POLLING ?? '{}') as object) };
const session = new ProjectSession({ root, logger: createMemoryLogger(), unwatchedPolling: polling });
session.onDidChangeUnwatched((summary) => print({ type: 'unwatched', summary }));
session.onDidChangeTree((changes) => print({ type: 'changes', changes }));
session.onDidSaveFile((save) => print({ type: 'save', path: save.path }));
await session.start();
await session.whenWatching();
print({ type: 'watching', unwatched: session.unwatchedFolders });
const commands = createInterface({ input: process.stdin });
commands.on('line', (line) => {
  const command = JSON.parse(line) as { focus: string[] };
  session.setFocusFolders(command.focus);
  print({ type: 'focused', focus: command.focus });
});
commands.on('close', () => void session.close().then(() => process.exit(0)));
