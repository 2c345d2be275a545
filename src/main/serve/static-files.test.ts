import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { readStaticFile } from './static-files';

describe('readStaticFile', () => {
  let project: TempProject;
  /** The served folder; its parent holds files that must never be served. */
  let folder: string;

  beforeEach(async () => {
    project = await createTempProject({
      'renderer/index.html': '<!doctype html><title>Flint</title>',
      'renderer/assets/app.js': 'console.log("app");',
      'renderer/assets/style.css': 'body{}',
      'renderer/assets/data.bin': Buffer.from([1, 2, 3]),
      'secret': 'do not serve',
      'renderer-private/secret': 'do not serve either',
    });
    folder = project.path('renderer');
  });

  afterEach(async () => {
    await project.remove();
  });

  it("serves index.html for '/'", async () => {
    const file = await readStaticFile(folder, '/');
    expect(file?.body.toString()).toBe('<!doctype html><title>Flint</title>');
    expect(file?.contentType).toBe('text/html; charset=utf-8');
  });

  it('serves a nested asset with its content type', async () => {
    const script = await readStaticFile(folder, '/assets/app.js');
    expect(script?.body.toString()).toBe('console.log("app");');
    expect(script?.contentType).toBe('text/javascript; charset=utf-8');

    const style = await readStaticFile(folder, '/assets/style.css');
    expect(style?.contentType).toBe('text/css; charset=utf-8');
  });

  it('serves an unknown extension as application/octet-stream', async () => {
    const file = await readStaticFile(folder, '/assets/data.bin');
    expect(file?.contentType).toBe('application/octet-stream');
    expect([...file!.body]).toEqual([1, 2, 3]);
  });

  it('decodes percent-encoded names', async () => {
    expect((await readStaticFile(folder, '/assets/%61pp.js'))?.body.toString()).toBe('console.log("app");');
  });

  it('refuses a path that climbs out with ..', async () => {
    expect(await readStaticFile(folder, '/../secret')).toBeNull();
    expect(await readStaticFile(folder, '/assets/../../secret')).toBeNull();
  });

  it('refuses a climb spelled with percent-encoded dots or slashes', async () => {
    expect(await readStaticFile(folder, '/%2e%2e/secret')).toBeNull();
    expect(await readStaticFile(folder, '/..%2fsecret')).toBeNull();
    expect(await readStaticFile(folder, '/%2E%2E%2Fsecret')).toBeNull();
  });

  it('refuses a sibling folder whose name starts with the served folder name', async () => {
    expect(await readStaticFile(folder, '/../renderer-private/secret')).toBeNull();
  });

  it('refuses an encoded NUL byte', async () => {
    expect(await readStaticFile(folder, '/index.html%00')).toBeNull();
    expect(await readStaticFile(folder, '/%00')).toBeNull();
  });

  it('refuses malformed percent-encoding', async () => {
    expect(await readStaticFile(folder, '/%E0%A4%A')).toBeNull();
  });

  it('returns null for a missing file', async () => {
    expect(await readStaticFile(folder, '/assets/missing.js')).toBeNull();
  });

  it('returns null for a folder', async () => {
    expect(await readStaticFile(folder, '/assets')).toBeNull();
  });
});
