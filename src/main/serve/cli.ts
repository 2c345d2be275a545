/**
 * `npm run serve -- [folder] [--port N]`: the loopback shell's entry point.
 *
 * The Node version check is the first import and this entry's only static one besides
 * node:url: static imports are loaded before an entry's own code, so the rest of the app
 * comes in through dynamic imports, after the check. The shell itself is in serve-shell.ts.
 */
import '../check-node-version';
import { fileURLToPath } from 'node:url';

// This file stays at out/main/serve.js; the renderer build is its sibling out/renderer.
const rendererFolder = fileURLToPath(new URL('../renderer', import.meta.url));
await import('../v8-memory-profile');
const { runServeShell, failServeShell } = await import('./serve-shell');
await runServeShell(rendererFolder).catch(failServeShell);
