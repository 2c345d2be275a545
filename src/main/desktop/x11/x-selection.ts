/**
 * X's PRIMARY selection (what a middle click would paste), read on Flint's own X
 * connection as ICCCM says: ConvertSelection to a window of Flint's, the owner answers with
 * SelectionNotify, the text is in a property of that window. A large selection comes in
 * pieces (INCR); its announced size, or the pieces' sum, past `maxBytes` stops the read:
 * the answer is `too-large`, never the text cut short. Each read has its own window, gone
 * after it, so an abandoned transfer never reaches the next read.
 */
import type { Disposable } from '../../lifecycle';
import { selectionOf, type SelectionRead } from '../primary-selection';
import { X, type XConnection, type XEvent } from './x-connection';

export interface SelectionReadOptions {
  /** More than this is `too-large`. */
  maxBytes: number;
  /** The whole read, a transfer in pieces included: an owner slower than this (silent, or a huge INCR transfer) is not waited for. */
  timeoutMs: number;
}

/** Reads PRIMARY as UTF-8 text. Never throws: a lost connection or a silent owner is `unavailable`. */
export async function readPrimarySelection(connection: XConnection, options: SelectionReadOptions): Promise<SelectionRead> {
  let requestor = 0;
  let inbox: EventInbox | null = null;
  const transfer = { started: false, finished: false };
  try {
    const [utf8, property, incr] = await Promise.all([connection.atom('UTF8_STRING'), connection.atom('FLINT_SELECTION'), connection.atom('INCR')]);
    requestor = connection.createRequestorWindow();
    inbox = new EventInbox(connection, requestor, Date.now() + options.timeoutMs);
    connection.convertSelection(requestor, X.atomPrimary, utf8, property);
    const notify = await inbox.next((event) => event.name === 'SelectionNotify');
    if (!notify) return ownerSilent();
    // No owner, or an owner that has no UTF-8 text to give.
    if (notify.property === X.none) return { kind: 'none' };
    const first = await connection.getProperty(requestor, property, { maxBytes: options.maxBytes + 1 });
    if (!first) return { kind: 'none' };
    if (first.type === incr) return await readIncrementally({ connection, inbox, requestor, property, maxBytes: options.maxBytes }, first.data, transfer);
    const bytes = first.data.length + first.bytesAfter;
    if (bytes > options.maxBytes) return { kind: 'too-large', bytes };
    return selectionOf(first.data.toString('utf8'));
  } catch (error) {
    return { kind: 'unavailable', reason: `The selection could not be read: ${error instanceof Error ? error.message : String(error)}.` };
  } finally {
    inbox?.dispose();
    if (requestor !== 0) {
      // An owner told to send the next piece may still write it: the window stays until it has long given up
      // (a write to a window that is gone is an X error, fatal to an app on Xlib's default handler).
      if (transfer.started && !transfer.finished) setTimeout(() => connection.destroyWindow(requestor), ABANDONED_WINDOW_MS).unref();
      else connection.destroyWindow(requestor);
    }
  }
}

/** Toolkits give up on a requestor that stopped taking pieces after a few seconds (Xt: 5 s). */
const ABANDONED_WINDOW_MS = 30_000;

interface Transfer {
  connection: XConnection;
  inbox: EventInbox;
  requestor: number;
  property: number;
  maxBytes: number;
}

/**
 * INCR: the property holds a lower bound of the size (xclip leaves it empty). Deleting it
 * asks the owner for the first piece; each piece read and deleted asks for the next, until
 * an empty one. A piece past the cap is left undeleted: the owner is not asked for more.
 */
async function readIncrementally({ connection, inbox, requestor, property, maxBytes }: Transfer, announced: Buffer, state: { started: boolean; finished: boolean }): Promise<SelectionRead> {
  const lowerBound = announced.length >= 4 ? announced.readUInt32LE(0) : 0;
  if (lowerBound > maxBytes) return { kind: 'too-large', bytes: lowerBound };
  const pieces: Buffer[] = [];
  let size = 0;
  state.started = true;
  connection.deleteProperty(requestor, property);
  for (;;) {
    const ready = await inbox.next((event) => event.name === 'PropertyNotify' && event.atom === property && event.state === X.newValue);
    if (!ready) return ownerSilent();
    const piece = await connection.getProperty(requestor, property, { maxBytes: maxBytes + 1 - size });
    if (!piece) return { kind: 'none' };
    const bytes = piece.data.length + piece.bytesAfter;
    if (bytes === 0) {
      state.finished = true;
      break;
    }
    size += bytes;
    if (size > maxBytes) return { kind: 'too-large', bytes: size };
    pieces.push(piece.data);
    connection.deleteProperty(requestor, property);
  }
  return selectionOf(Buffer.concat(pieces).toString('utf8'));
}

function ownerSilent(): SelectionRead {
  return { kind: 'unavailable', reason: 'The selection’s owner did not answer in time.' };
}

/** The events of one window, kept from before the request that causes them, taken in order until a deadline. */
class EventInbox implements Disposable {
  private readonly events: XEvent[] = [];
  private wake: (() => void) | null = null;
  private readonly listening: Disposable;
  private readonly closing: Disposable;
  private closed = false;

  constructor(connection: XConnection, window: number, private readonly deadline: number) {
    this.listening = connection.onEvent((event) => {
      const about = event.name === 'SelectionNotify' ? event.requestor : event.wid;
      if (about !== window) return;
      this.events.push(event);
      this.wake?.();
    });
    this.closing = connection.onDidClose(() => {
      this.closed = true;
      this.wake?.();
    });
  }

  /** The first event (from the oldest) that `matches`; null past the deadline or once the connection is gone. */
  async next(matches: (event: XEvent) => boolean): Promise<XEvent | null> {
    for (;;) {
      const index = this.events.findIndex(matches);
      if (index >= 0) return this.events.splice(0, index + 1).at(-1)!;
      const left = this.deadline - Date.now();
      if (left <= 0 || this.closed) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
      this.wake = null;
    }
  }

  dispose(): void {
    this.listening.dispose();
    this.closing.dispose();
    this.wake?.();
  }
}
