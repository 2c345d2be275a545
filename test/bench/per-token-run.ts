/**
 * One answer through Flint's whole per-token path in main, for the diff comparison: a real
 * Conversation (its metered sink, parser, HunkBoard and UpdateBatcher) fed the answer delta
 * by delta, with the renderer's acknowledgement simulated once per frame.
 *
 * A frame at 1,000 tokens/s holds ~16 tokens: with deltas of `size` characters (~4 a token),
 * a batch goes out every `FRAME_CHARACTERS / size` deltas — what a renderer acknowledging
 * every frame lets through (in the app a hunk's first line may go out sooner, on its own
 * turn of the loop). The deltas are fed in one task, so hunks settle (are anchored) on the
 * microtasks after the last one rather than after the delta that completed each: the same
 * work, in one place.
 */
import type { AnswerUpdate } from '../../src/shared/ask-types';
import { EditStreamParser } from '../../src/shared/edits/edit-stream-parser';
import type { HunkLine } from '../../src/shared/edits/edit-types';
import type { HunkUpdate } from '../../src/shared/edits/hunk-types';
import type { Conversation } from '../../src/main/ask/conversation';
import type { EditApplier } from '../../src/main/edits/edit-applier';
import { HunkBoard, type HunkBoardOptions } from '../../src/main/edits/hunk-board';
import type { FileText } from '../../src/main/fs/file-text';
import type { StreamSink } from '../../src/main/inference/model-stream';
import { createMemoryLogger } from '../../src/main/logger';
import { conversationFor, startTurn } from '../helpers/conversations';
import { WORKLOAD_PATH, type DiffWorkload } from './diff-workloads';
import { COMPLETED, nextTask } from './session-driver';

/** Characters the model streams in one frame at 1,000 tokens/s (~16 tokens of ~4). */
export const FRAME_CHARACTERS = 64;

/** What went to the renderer, counted. */
export interface UpdateCounts {
  /** Hunk updates the board built (a HunkUpdate object each), previews included. */
  built: number;
  /** Hunk updates in the batches sent, the batches, and the updates sent that carry a preview (the line in progress). */
  sent: number;
  batches: number;
  previews: number;
}

/** An answer's hunks as the renderer has them at the end (for the check). */
export interface Received {
  state: string;
  anchorLine: number | null;
  lines: HunkLine[];
}

/** The file as the model was shown it. */
export function fileTextOf(lines: readonly string[]): FileText {
  return { bom: false, lines: [...lines], terminators: lines.map(() => '\n'), eol: '\n' };
}

/**
 * Streams `deltas` through a new Conversation until every hunk is settled and sent; returns
 * the counts, and (with `receive`) the hunks as the renderer received them.
 */
export async function perTokenRun(workload: DiffWorkload, text: FileText, deltas: readonly string[], receive?: Map<string, Received>): Promise<UpdateCounts> {
  const counts: UpdateCounts = { built: 0, sent: 0, batches: 0, previews: 0 };
  let sink: StreamSink | null = null;
  const conversation: Conversation = conversationFor({
    id: 'bench-diff',
    openBoard: (report, streaming) =>
      new HunkBoard({ applier: NO_WRITES, readText: async () => null, logger: createMemoryLogger(), report: counted(report, counts), streaming: countedStreaming(streaming, counts) }),
    emit: (update) => {
      counts.batches += 1;
      counts.sent += update.hunks.length;
      for (const hunk of update.hunks) if (hunk.partialLine !== undefined) counts.previews += 1;
      if (receive) received(receive, update);
    },
    openStream: async (_prompt, streamSink) => {
      sink = streamSink;
      return { cancel: () => undefined, done: new Promise(() => undefined) };
    },
  });
  await startTurn(conversation, { instructions: '', input: workload.name }, new Map([[WORKLOAD_PATH, text]]));
  const stream = sink as StreamSink | null;
  if (stream === null) throw new Error('the stream never opened');
  const perFrame = Math.max(1, Math.round(FRAME_CHARACTERS / deltas[0]!.length));
  for (let index = 0; index < deltas.length; index += 1) {
    stream.onDelta(deltas[index]!);
    // A frame is over: the batch goes out (the renderer acknowledged the last one, or a hunk's first line was due).
    if ((index + 1) % perFrame === 0) conversation.flush();
  }
  stream.onEnd(COMPLETED);
  // Settling is asynchronous (microtasks): one turn of the loop sees it through.
  await nextTask();
  conversation.flush();
  conversation.dispose();
  return counts;
}

/** Streaming never writes: an applier that is never called. */
const NO_WRITES = {} as EditApplier;

/** Counts the board's reports on their way to the batcher. */
function counted(report: HunkBoardOptions['report'], counts: UpdateCounts): HunkBoardOptions['report'] {
  return (update, urgent) => {
    counts.built += 1;
    report(update, urgent);
  };
}

/** Counts the updates of streaming hunks built as their batches go out. */
function countedStreaming(streaming: NonNullable<HunkBoardOptions['streaming']>, counts: UpdateCounts): NonNullable<HunkBoardOptions['streaming']> {
  const counters = new WeakMap<() => HunkUpdate | null, () => HunkUpdate | null>();
  // The last hunk's counter at hand: a stream grows one hunk at a time (the count costs next to nothing).
  let last: { build: () => HunkUpdate | null; counter: () => HunkUpdate | null } | null = null;
  return (hunkId, build, urgent) => {
    if (last?.build !== build) {
      let counter = counters.get(build);
      if (!counter) {
        counter = () => {
          const update = build();
          if (update !== null) counts.built += 1;
          return update;
        };
        counters.set(build, counter);
      }
      last = { build, counter };
    }
    streaming(hunkId, last.counter, urgent);
  };
}

/**
 * The hunk updates an answer needs without batching or previews: one per hunk opened, per
 * line and per hunk settled (what each hunk's events would report one by one).
 */
export function neededUpdates(answer: string): number {
  let needed = 0;
  const parser = new EditStreamParser((event) => {
    if (event.type === 'hunk-open' || event.type === 'hunk-line' || event.type === 'hunk-complete') needed += 1;
  });
  parser.push(answer);
  parser.finish(false);
  return needed;
}

/** Keeps each hunk as the renderer would: its latest state, its lines appended. */
function received(receive: Map<string, Received>, update: AnswerUpdate): void {
  for (const hunk of update.hunks) {
    const known = receive.get(hunk.id) ?? { state: hunk.state, anchorLine: null, lines: [] };
    known.state = hunk.state;
    known.anchorLine = hunk.anchorLine;
    if (hunk.replaceLines) known.lines = [...hunk.replaceLines];
    else known.lines.push(...hunk.appendLines);
    receive.set(hunk.id, known);
  }
}

/** The file the received hunks make of `oldLines`: each pending hunk's new lines in place of its old ones at its anchor. */
export function appliedFile(oldLines: readonly string[], hunks: Iterable<Received>): string[] {
  const placed = [...hunks].map((hunk) => {
    if (hunk.state !== 'pending' || hunk.anchorLine === null) throw new Error(`a hunk ended ${hunk.state}, anchored at ${hunk.anchorLine}`);
    const oldCount = hunk.lines.filter((line) => line.kind !== 'add').length;
    const start = hunk.anchorLine - 1;
    return { start, end: start + oldCount, lines: hunk.lines.filter((line) => line.kind !== 'remove').map((line) => line.text) };
  });
  placed.sort((a, b) => a.start - b.start);
  const out: string[] = [];
  let copied = 0;
  for (const hunk of placed) {
    out.push(...oldLines.slice(copied, hunk.start), ...hunk.lines);
    copied = hunk.end;
  }
  out.push(...oldLines.slice(copied));
  return out;
}
