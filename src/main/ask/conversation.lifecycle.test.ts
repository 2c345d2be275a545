/**
 * A conversation's life around its edges, as a second review found them: the note when a
 * request is refused or redirected, a redirect racing a queued message, closing and
 * restoring, Esc while a turn is prepared, a history full of undecided work. Streams are
 * driven by hand on a real workspace. Each failed before its fix.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FIRST_HUNK, harness, slowPrompts, tick, type FakeStream, type Harness } from '../../../test/helpers/hand-driven-answers';
import { waitFor } from '../../../test/helpers/temp-project';
import { DecisionLog } from '../edits/decision-log';
import { ConversationStore, DEFAULT_MAX_COUNT } from './conversation-store';

const REJECTED = 'hunk 1 in src/a.ts rejected';

/** Everything a request told the model: its input and the earlier messages it carried. */
const told = (stream: FakeStream | undefined): string => (stream ? [stream.prompt, ...stream.history.map((message) => message.text)].join('\n') : '');

/** A first answer with one hunk, which the user rejects. */
async function rejectedFirstHunk(h: Harness): Promise<string> {
  const { sessionId } = await h.answers.ask({ prompt: 'change first', depth: 'fast' });
  await waitFor(() => h.streams.length === 1, 'the first stream');
  h.streams[0]!.complete(FIRST_HUNK);
  const conversation = h.answers.conversation(sessionId);
  await waitFor(() => conversation.hunks.counts().pending === 1, 'the hunk');
  conversation.hunks.reject('1.0');
  return sessionId;
}

describe('the decisions note reaches the model', () => {
  it('a rejection sent with a request the provider refused (429) is told again by its automatic retry', async () => {
    const h = await harness();
    const id = await rejectedFirstHunk(h);
    await h.answers.ask({ prompt: 'and change second', depth: 'fast', conversationId: id });
    await waitFor(() => h.streams.length === 2, 'the follow-up');
    expect(h.streams[1]!.prompt).toContain(REJECTED);
    // The provider refuses the request: the model never read it.
    h.streams[1]!.end({ outcome: 'failed', message: 'Rate limited.', failure: { code: 'rate-limited', retryAfterSeconds: 0.2 } });
    await waitFor(() => h.streams.length === 3, 'the automatic retry');
    expect(told(h.streams[2])).toContain(REJECTED);
  });

  it('a rejection sent with a follow-up that the user then redirects is still known to the model answering the redirect', async () => {
    const h = await harness();
    const id = await rejectedFirstHunk(h);
    await h.answers.ask({ prompt: 'and change second', depth: 'fast', conversationId: id });
    await waitFor(() => h.streams.length === 2, 'the follow-up');
    expect(h.streams[1]!.prompt).toContain(REJECTED);
    // The model starts to answer; the user interrupts at once.
    await h.answers.redirect(id, 'no, make second return 22');
    await waitFor(() => h.streams.length === 3, 'the redirect');
    expect(told(h.streams[2])).toContain(REJECTED);
  });
});

describe('a redirect racing a queued message', () => {
  it('a redirect typed while the answer streamed, arriving as it ends with a message queued, replaces that answer (its hunk out of Accept all) and does not swallow the queued message', async () => {
    const h = await harness();
    const { sessionId: id } = await h.answers.ask({ prompt: 'change first', depth: 'fast' });
    await waitFor(() => h.streams.length === 1, 'the first stream');
    await h.answers.queue(id, 'queued: also add a comment');
    // The answer ends with its hunk just as the user presses Enter on "no, …".
    h.streams[0]!.complete(FIRST_HUNK);
    await h.answers.redirect(id, 'no, leave first alone');
    const conversation = h.answers.conversation(id);
    await waitFor(() => conversation.hunks.snapshot().hunks.every((hunk) => hunk.state !== 'streaming'), 'the hunk to settle');
    // The redirect is sent: what it does to the turns before it is done.
    await waitFor(() => h.streams.some((stream) => stream.prompt.includes('no, leave first alone')), 'the redirect’s stream');
    const first = conversation.hunks.snapshot().hunks.find((hunk) => hunk.id === '1.0');
    // The queued words never reached the model, and a redirected turn offers no Retry.
    expect({ firstHunkSuperseded: first?.superseded ?? false, queuedTurn: conversation.turn(2).status }).toEqual({ firstHunkSuperseded: true, queuedTurn: expect.not.stringMatching(/^redirected$/) });
  });
});

describe('closing and restoring', () => {
  it('an answer streaming when Flint quits comes back as closed by Flint, not "Stopped by you."', async () => {
    const h = await harness({ history: true });
    const { sessionId: id } = await h.answers.ask({ prompt: 'change first', depth: 'fast' });
    await waitFor(() => h.streams.length === 1, 'the first stream');
    h.streams[0]!.sink.onDelta('Working on it.\n');
    await tick(100);
    await h.workspace.close('closed', 'Flint is quitting.');
    await h.answers.flush();
    await h.workspace.open(h.project.root);
    await waitFor(() => h.answers.conversations().some((summary) => summary.sessionId === id), 'the history to come back');
    expect(h.answers.conversation(id).turn(1).message).toBe('Flint closed the project while this answer streamed.');
  });

  it('a project whose close fails (its watcher would not let go) still has its conversations written: flush() returns', async () => {
    const h = await harness({ history: true });
    const { sessionId: id } = await h.answers.ask({ prompt: 'change first', depth: 'fast' });
    await waitFor(() => h.streams.length === 1, 'the first stream');
    h.streams[0]!.complete(FIRST_HUNK);
    await tick(100);
    const project = h.workspace.requireProject();
    const close = project.close.bind(project);
    project.close = async () => {
      await close();
      throw new Error('the watcher would not close');
    };
    await h.workspace.close('closed', 'Flint is quitting.').catch(() => undefined);
    // Returns: a flush that hung would fail this test on its timeout (a bound on the hang, not a deadline for the write).
    await h.answers.flush();
    const file = await readFile(ConversationStore.fileFor(h.historyFolder, h.project.root), 'utf8').catch(() => '');
    expect(file).toContain(id);
  });
});

describe('the note kept between runs', () => {
  it('keeps only a hunk’s latest decision after a restart (accepted before, undone after: told once, as undone)', () => {
    const log = new DecisionLog();
    log.putBack(['hunk 1 in src/a.ts accepted (written to disk)']);
    log.undone(1, 'src/a.ts');
    expect(log.peek().filter((line) => line.startsWith('hunk 1 '))).toEqual(['hunk 1 in src/a.ts undone (no longer on disk)']);
  });
});

describe('Esc while a turn is prepared', () => {
  it('a follow-up stopped (Esc) while its prompt is still being built is never sent to the model', async () => {
    const gate = slowPrompts('slow');
    const h = await harness({ buildPrompt: gate.buildPrompt });
    const { sessionId: id } = await h.answers.ask({ prompt: 'change first', depth: 'fast' });
    await waitFor(() => h.streams.length === 1, 'the first stream');
    h.streams[0]!.complete('Done.\n');
    const asked = h.answers.ask({ prompt: 'slow: and change second', depth: 'fast', conversationId: id });
    await waitFor(() => gate.isPreparing(), 'the follow-up to be prepared');
    h.answers.stop(id);
    gate.release();
    // ask() returns once the turn was sent or not: a stream it opened would be among h.streams now.
    await asked;
    expect(h.answers.conversation(id).turn(2).status).toBe('stopped');
    expect(h.streams).toHaveLength(1);
  });
});

describe('the history list is full of undecided work', () => {
  it(`a new question asked when ${DEFAULT_MAX_COUNT} conversations hold undecided hunks is answered (the oldest is let go, not the new one)`, async () => {
    const h = await harness();
    for (let index = 0; index < DEFAULT_MAX_COUNT; index += 1) {
      const { sessionId } = await h.answers.ask({ prompt: `change first, take ${index}`, depth: 'fast' });
      await waitFor(() => h.streams.length === index + 1, 'its stream');
      h.streams[index]!.complete(FIRST_HUNK);
      await waitFor(() => h.answers.conversation(sessionId).hunks.counts().pending === 1, 'its hunk to be pending');
    }
    await expect(h.answers.ask({ prompt: 'one more question', depth: 'fast' })).resolves.toMatchObject({ sessionId: expect.any(String) });
  }, 60_000);
});
