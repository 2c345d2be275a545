/**
 * A HunkBoard on a real temp project with the real EditService (applier, journal), fed
 * by the real parser: for tests of what accepting an answer writes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EditStreamParser } from '../../src/shared/edits/edit-stream-parser';
import type { HunkUpdate } from '../../src/shared/edits/hunk-types';
import { EditService } from '../../src/main/edits/edit-service';
import type { HunkBoard } from '../../src/main/edits/hunk-board';
import type { ProjectFileNames } from '../../src/main/edits/model-paths';
import { ProjectFiles } from '../../src/main/fs/project-files';
import { createMemoryLogger } from '../../src/main/logger';
import { baseName } from '../../src/shared/paths';
import { isHunkStreamEvent } from '../../src/shared/edits/edit-types';
import { createTempProject, waitFor, type TempProject } from './temp-project';

export interface BoardOnDisk {
  project: TempProject;
  service: EditService;
  board: HunkBoard;
  /** Each hunk's latest update. */
  hunks: Map<string, HunkUpdate>;
  /** Every update, in order (what a renderer would be sent, unbatched). */
  updates: HunkUpdate[];
  /** Streams the answer (as conversation turn `turn`) in small deltas and lets every hunk settle. */
  stream(answer: string, deltaSize?: number, turn?: number): Promise<void>;
  read(path: string): Promise<string>;
  close(): Promise<void>;
}

/** The project's files by name, as the watcher's index would answer (the files given, not what Flint creates). */
function namesOf(paths: readonly string[]): ProjectFileNames {
  return {
    hasFile: (path) => paths.includes(path),
    filesNamed: (name) => paths.filter((path) => baseName(path) === name),
  };
}

export async function boardOnDisk(files: Record<string, string>): Promise<BoardOnDisk> {
  const project = await createTempProject(files);
  const journalFolder = await mkdtemp(join(tmpdir(), 'flint-journal-'));
  const service = await EditService.create({
    files: new ProjectFiles(project.root),
    journalFolder,
    logger: createMemoryLogger(),
    onWillWrite: () => undefined,
    names: namesOf(Object.keys(files)),
  });
  const hunks = new Map<string, HunkUpdate>();
  const updates: HunkUpdate[] = [];
  const board = service.openBoard((update) => {
    hunks.set(update.id, update);
    updates.push(update);
  });
  return {
    project,
    service,
    board,
    hunks,
    updates,
    async stream(answer, deltaSize = 7, turn = 1) {
      const toBoard = board.beginTurn(turn);
      const parser = new EditStreamParser(
        (event) => {
          if (isHunkStreamEvent(event)) toBoard(event);
        },
        { isProjectPath: (candidate) => board.namesProjectFile(candidate) },
      );
      for (let offset = 0; offset < answer.length; offset += deltaSize) parser.push(answer.slice(offset, offset + deltaSize));
      parser.finish(false);
      // Settling reads the files: wait until no hunk is still streaming.
      await waitFor(() => [...hunks.values()].every((hunk) => hunk.state !== 'streaming'), 'every hunk to settle');
    },
    read: (path) => readFile(project.path(path), 'utf8'),
    async close() {
      service.dispose();
      await service.finishWrites();
      await project.remove();
      await rm(journalFolder, { recursive: true, force: true });
    },
  };
}

/** With a board on `files`, streams `answer`, runs `body`, and always cleans up. */
export async function withBoard(files: Record<string, string>, answer: string, body: (flint: BoardOnDisk) => Promise<void>): Promise<void> {
  const flint = await boardOnDisk(files);
  try {
    await flint.stream(answer);
    await body(flint);
  } finally {
    await flint.close();
  }
}
