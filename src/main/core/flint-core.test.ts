import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventChannel, EventEnvelope, EventPayloads } from '../../shared/contract';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createContractHost, type ContractHost } from '../contract-host';
import { createTestCore } from '../../../test/helpers/test-core';
import type { FlintCore } from './flint-core';

describe('FlintCore through the contract host', () => {
  let project: TempProject;
  let configDirectory: string;
  let core: FlintCore;
  /** The open project's current file. */
  const currentFile = () => core.workspace.requireProject().currentFile.value;
  let host: ContractHost;
  let events: EventEnvelope[];

  const eventsOf = <C extends EventChannel>(channel: C): EventPayloads[C][] =>
    events.filter((event) => event.channel === channel).map((event) => event.payload as EventPayloads[C]);

  beforeEach(async () => {
    project = await createTempProject({ 'src/main.ts': 'console.log(1);\n', 'notes.txt': 'hello\n' });
    configDirectory = await mkdtemp(join(tmpdir(), 'flint-config-'));
    const created = await createTestCore({ configDirectory });
    core = created.core;
    host = createContractHost(core.handlers, created.logger);
    events = [];
    core.onDidEmit((event) => events.push(event));
  });

  afterEach(async () => {
    await core.shutdown();
    await project.remove();
    await rm(configDirectory, { recursive: true, force: true });
  });

  async function openAndWaitForTree(root = project.root) {
    const result = await host.invoke('project:open', { path: root });
    expect(result.ok).toBe(true);
    await waitFor(() => eventsOf('project:tree').some((tree) => tree.entryCount !== null), 'the whole index');
    return result;
  }

  it('refuses a folder that does not exist with a clear message', async () => {
    const result = await host.invoke('project:open', { path: join(project.root, 'nope') });
    expect(result).toEqual({
      ok: false,
      error: { code: 'not-found', message: `There is no folder at ${join(project.root, 'nope')}.` },
    });
  });

  it('refuses a file given as the folder', async () => {
    const result = await host.invoke('project:open', { path: project.path('notes.txt') });
    expect(result).toMatchObject({ ok: false, error: { code: 'not-a-directory' } });
  });

  it('refuses a relative folder path', async () => {
    const result = await host.invoke('project:open', { path: 'some/folder' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('opens a folder: announces it, sends the tree’s top level at once and again with the index’s size, and remembers it in Recent on disk', async () => {
    await openAndWaitForTree();
    expect(eventsOf('project:opened')[0]).toMatchObject({ root: project.root, name: project.root.split('/').at(-1) });
    const [first, indexed] = eventsOf('project:tree');
    // The top level shows as soon as the root is read, while the rest is indexed.
    expect(first!.entries.map((entry) => entry.path).sort()).toEqual(['notes.txt', 'src']);
    expect(first!.entryCount).toBeNull();
    expect(indexed!.entries.map((entry) => entry.path).sort()).toEqual(['notes.txt', 'src']);
    expect(indexed!.entryCount).toBe(3);
    const saved = JSON.parse(await readFile(join(configDirectory, 'settings.json'), 'utf8'));
    expect(saved.recentProjects).toEqual([project.root]);
  });

  it('lists a folder as it opens, filters the whole index and offers files for @, all from main', async () => {
    await openAndWaitForTree();
    expect(await host.invoke('project:listDirectory', { path: 'src' })).toEqual({ ok: true, value: [{ path: 'src/main.ts', kind: 'file' }] });
    expect(await host.invoke('project:listDirectory', { path: 'notes.txt' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await host.invoke('project:listDirectory', { path: '../x' })).toMatchObject({ ok: false, error: { code: 'outside-project' } });
    expect(await host.invoke('project:findFiles', { query: 'MAIN', showIgnored: false, limit: 10 })).toEqual({ ok: true, value: { entries: [{ path: 'src/main.ts', kind: 'file' }], more: false, indexing: false } });
    expect(await host.invoke('project:findFiles', { query: 't', showIgnored: false, limit: 1 })).toMatchObject({ ok: true, value: { entries: [{ path: 'notes.txt' }], more: true } });
    expect(await host.invoke('project:findFiles', { query: 'x', showIgnored: false, limit: 100_000 })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await host.invoke('project:suggestFiles', { query: 'mai' })).toEqual({ ok: true, value: ['src/main.ts'] });
  });

  it('needs an open project to read files', async () => {
    const result = await host.invoke('file:read', { path: 'notes.txt' });
    expect(result).toMatchObject({ ok: false, error: { code: 'no-project' } });
  });

  it('reads a project file and refuses paths outside the project', async () => {
    await openAndWaitForTree();
    expect(await host.invoke('file:read', { path: 'notes.txt' })).toMatchObject({ ok: true, value: { kind: 'text', text: 'hello\n' } });
    for (const path of ['../outside.txt', '/etc/passwd', 'src/../../x', 'C:\\Windows\\win.ini', '\\\\server\\share', 'a\0b']) {
      const result = await host.invoke('file:read', { path });
      expect(result, path).toMatchObject({ ok: false, error: { code: 'outside-project' } });
    }
  });

  it('makes the current file whichever is more recent: selected in Flint or saved elsewhere', async () => {
    await openAndWaitForTree();
    // The tree comes before the watcher covers every folder; a save before that goes unseen.
    await core.workspace.requireProject().whenWatching();
    expect(await host.invoke('currentFile:select', { path: 'notes.txt' })).toMatchObject({
      ok: true,
      value: { path: 'notes.txt', source: 'selected' },
    });

    await writeFile(project.path('src/main.ts'), 'console.log(2);\n');
    await waitFor(() => currentFile().path === 'src/main.ts', 'the saved file to become current');
    expect(currentFile().source).toBe('saved');
    expect(eventsOf('currentFile:changed').at(-1)).toMatchObject({ path: 'src/main.ts', source: 'saved' });

    await host.invoke('currentFile:select', { path: 'notes.txt' });
    expect(currentFile()).toMatchObject({ path: 'notes.txt', source: 'selected' });
  });

  it('refuses to select a file that does not exist', async () => {
    await openAndWaitForTree();
    expect(await host.invoke('currentFile:select', { path: 'missing.ts' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('closes the previous project when another is opened', async () => {
    const other = await createTempProject({ 'other.txt': 'x' });
    try {
      await openAndWaitForTree();
      const first = eventsOf('project:opened')[0]!;
      await host.invoke('project:open', { path: other.root });
      expect(eventsOf('project:closed')).toEqual([{ projectId: first.id, reason: 'closed', message: 'Another project was opened.' }]);
      expect(core.workspace.project?.root).toBe(other.root);
    } finally {
      await core.closeProject('closed', 'test over');
      await other.remove();
    }
  });

  it('closes the project with a message when its folder is deleted while open', async () => {
    await openAndWaitForTree();
    await rm(project.root, { recursive: true, force: true });
    const [closed] = await waitFor(() => eventsOf('project:closed').length > 0 && eventsOf('project:closed'), 'the project to close', 5000);
    expect(closed).toMatchObject({ reason: 'lost' });
    expect(closed!.message).toContain(project.root);
    expect(core.workspace.project).toBeNull();
  });

  it('says which shell it is and that the serve shell has no native dialog', async () => {
    expect(await host.invoke('app:getInfo', {})).toEqual({ ok: true, value: { shell: 'serve', canChooseFolder: false, version: 'test', askCommand: 'flint --ask' } });
    expect(await host.invoke('project:choose', {})).toMatchObject({ ok: false, error: { code: 'unsupported' } });
  });
});
