/**
 * The text the user has selected, anywhere on the desktop: X11's PRIMARY selection (what a
 * middle click would paste), read at shortcut time: on Flint's X connection
 * (x11/x-selection.ts), or, while there is none, with `xclip` (here). Bounded: a selection
 * larger than MAX_SELECTION_BYTES is not read whole (it cannot be the focus of a question
 * anyway), and a selection owner that does not answer is given up on.
 */
import { spawn } from 'node:child_process';

export type SelectionRead =
  | { kind: 'text'; text: string }
  | { kind: 'none' }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'unavailable'; reason: string };

/** Reads the desktop's selection now; injected so shells and tests can replace it. */
export type SelectionReader = () => Promise<SelectionRead>;

/** A selection this large is a whole file or more, not lines to focus on. */
export const MAX_SELECTION_BYTES = 1024 * 1024;

/** The selection's owner answers within milliseconds; one that does not is not waited for. */
const TIMEOUT_MS = 400;

/** Sorts a read selection: empty, too large, or text. */
export function selectionOf(text: string): SelectionRead {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_SELECTION_BYTES) return { kind: 'too-large', bytes };
  return text.trim() === '' ? { kind: 'none' } : { kind: 'text', text };
}

/** PRIMARY through `xclip -o`, reading at most MAX_SELECTION_BYTES + 1 bytes of it. */
export function createXclipSelectionReader(env: NodeJS.ProcessEnv = process.env): SelectionReader {
  return () =>
    new Promise((resolve) => {
      if (!env.DISPLAY) return resolve({ kind: 'unavailable', reason: 'No X display: the selection cannot be read.' });
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (read: SelectionRead): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill();
        resolve(read);
      };
      const child = spawn('xclip', ['-o', '-selection', 'primary', '-t', 'UTF8_STRING'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const timer = setTimeout(() => finish({ kind: 'unavailable', reason: 'The selection’s owner did not answer in time.' }), TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_SELECTION_BYTES) return finish({ kind: 'too-large', bytes: size });
        chunks.push(chunk);
      });
      child.on('error', (error: NodeJS.ErrnoException) =>
        finish({ kind: 'unavailable', reason: error.code === 'ENOENT' ? 'xclip is not installed (apt install xclip): the selection cannot be read.' : error.message }),
      );
      // xclip exits 1 when nothing is selected ("target UTF8_STRING not available").
      child.on('close', (code) => finish(code === 0 ? selectionOf(Buffer.concat(chunks).toString('utf8')) : { kind: 'none' }));
    });
}
