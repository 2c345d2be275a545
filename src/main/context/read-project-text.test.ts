import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { readProjectText } from './read-project-text';

describe('readProjectText', () => {
  let project: TempProject;

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'const a = 1;\r\nconst b = 2;\n' });
  });

  afterEach(() => project.remove());

  it('reads UTF-8 text as lines', async () => {
    expect((await readProjectText(project.root, 'src/app.ts'))?.lines).toEqual(['const a = 1;', 'const b = 2;']);
  });

  it('answers null for a file that is not there (deleted after its save)', async () => {
    await rm(project.path('src/app.ts'));
    expect(await readProjectText(project.root, 'src/app.ts')).toBeNull();
  });

  it('refuses a file over the limit, naming both sizes', async () => {
    await expect(readProjectText(project.root, 'src/app.ts', 10)).rejects.toMatchObject({ code: 'too-large', message: 'src/app.ts is 27 bytes; Flint reads files up to 10 bytes.' });
  });

  it("refuses a FIFO as 'not-a-file' and returns instead of waiting for a writer", async () => {
    execFileSync('mkfifo', [project.path('src/pipe')]);
    await expect(readProjectText(project.root, 'src/pipe')).rejects.toMatchObject({ code: 'not-a-file' });
  });

  it('refuses a path that leaves the project', async () => {
    await expect(readProjectText(project.root, '../etc/passwd')).rejects.toMatchObject({ code: 'outside-project' });
  });
});
