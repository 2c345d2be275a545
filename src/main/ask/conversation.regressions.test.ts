/**
 * What a review of the conversations work found, pinned: queue, redirect and retry racing
 * each other and the answer's end, the automatic 429 retry, the history kept across a
 * close, and the note. Streams are driven by hand on a real workspace. Each failed before its fix.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FIRST_HUNK, firstQuestion, harness, slowPrompts, tick } from '../../../test/helpers/hand-driven-answers';
import { waitFor } from '../../../test/helpers/temp-project';
import { historyMessages } from './conversation-record';
import { ConversationStore } from './conversation-store';

describe('queue, redirect and retry (AnswerService)', () => {
  it('a message queued (Tab) before a redirect (Enter) is sent — or said not sent — once the redirect’s answer ends; it is never left "queued" forever', async () => {
    const h = await harness();
    const id = await firstQuestion(h);
    await h.answers.queue(id, 'queued words: also rename it');
    await h.answers.redirect(id, 'no, use reduce instead');
    await waitFor(() => h.streams.length === 2, 'the redirect’s stream');
    h.streams[1]!.complete('Done.\n');
    const conversation = h.answers.conversation(id);
    expect(conversation.turn(2)).toMatchObject({ kind: 'queued', text: 'queued words: also rename it' });
    // Either sent after the redirect's answer, or ended with Retry: anything but waiting forever
    // (the bound only stops a hang; a busy machine may take its time to get there).
    await waitFor(() => conversation.turn(2).status !== 'queued', 'the queued message to be sent or ended');
  });

  it('a message queued while the previous queued message is still being prepared waits for it: one conversation never streams two turns at once', async () => {
    const h = await harness();
    const id = await firstQuestion(h);
    await h.answers.queue(id, 'second message');
    // The first answer ends: the queued turn is being prepared (its files read)…
    h.streams[0]!.complete('First answer.\n');
    // …and the user presses Tab again in that moment (the pane still showed "streaming").
    await h.answers.queue(id, 'third message');
    await waitFor(() => h.streams.length === 2, 'the second message’s stream');
    const conversation = h.answers.conversation(id);
    expect(h.streams[1]!.prompt).toContain('second message');
    expect(conversation.turn(3).status).toBe('queued');
    // The third goes when the second's answer ends. Had it gone beside the second (the bug:
    // turns 2 and 3 streaming at once), maxOpen would say so once the third is open.
    h.streams[1]!.complete('Second answer.\n');
    await waitFor(() => h.streams.length === 3, 'the third message’s stream');
    expect(h.maxOpen()).toBe(1);
  });

  it('a redirect (Enter) while the queued message is being sent interrupts that turn: it does not stream on beside the redirect, its hunks out of Accept all', async () => {
    // The queued message's prompt is held while it is being prepared: the redirect lands exactly there.
    const gate = slowPrompts('queued:');
    const h = await harness({ buildPrompt: gate.buildPrompt });
    const id = await firstQuestion(h);
    await h.answers.queue(id, 'queued: change first');
    h.streams[0]!.complete('First answer.\n');
    await waitFor(() => gate.isPreparing(), 'the queued message to be prepared');
    const redirected = h.answers.redirect(id, 'no, change second instead');
    await waitFor(() => h.streams.some((stream) => stream.prompt.includes('no, change second instead')), 'the redirect’s stream');
    gate.release();
    await redirected;
    const conversation = h.answers.conversation(id);
    await waitFor(() => !['queued', 'streaming'].includes(conversation.turn(2).status), 'the queued turn to end');
    // Had the queued turn gone on to stream, its hunk would be one more for Accept all.
    const queuedStream = h.streams.find((stream) => stream.prompt.includes('queued: change first'));
    queuedStream?.sink.onDelta(FIRST_HUNK);
    await waitFor(() => conversation.hunks.snapshot().hunks.every((hunk) => hunk.state !== 'streaming'), 'any hunk to settle');
    expect(conversation.hunks.counts().pending).toBe(0);
    expect(h.maxOpen()).toBe(1);
  });

  it('a redirect whose project closed while its prompt was being prepared is refused (the bar keeps the words), not reported as sent', async () => {
    const gate = slowPrompts('slow');
    const h = await harness({ buildPrompt: gate.buildPrompt });
    const id = await firstQuestion(h);
    const redirected = h.answers.redirect(id, 'slow: use reduce instead');
    await waitFor(() => gate.isPreparing(), 'the redirect to be prepared');
    await h.workspace.close('closed', 'the user closed the folder');
    gate.release();
    await expect(redirected).rejects.toMatchObject({ code: 'no-project' });
  });

  it('the automatic retry after a 429 is called off when the user asks something else in the conversation (it must not resend the old question later)', async () => {
    const h = await harness();
    const id = await firstQuestion(h, 'old question');
    h.streams[0]!.end({ outcome: 'failed', message: 'Rate limited.', failure: { code: 'rate-limited', retryAfterSeconds: 0.3 } });
    // The user moves on: a follow-up in the same conversation, answered at once.
    await h.answers.ask({ prompt: 'new question instead', depth: 'fast', conversationId: id });
    await waitFor(() => h.streams.length === 2, 'the follow-up’s stream');
    h.streams[1]!.complete('Answered.\n');
    const conversation = h.answers.conversation(id);
    // Decisive: the countdown is gone, and its timer, if it ever fires, sends only while a countdown runs.
    expect(conversation.turn(1).failure?.retryAtEpochMs).toBeUndefined();
    // Past the 0.3 s it was due (a busy machine may show less of this, never more).
    await tick(700);
    expect(h.streams.map((stream) => stream.prompt)).toEqual(['old question', 'new question instead']);
    expect(conversation.latest()?.text).toBe('new question instead');
  });

  it('a redirect supersedes only the redirected turn’s undecided hunks, not those of an earlier completed turn the user left pending', async () => {
    const h = await harness();
    const id = await firstQuestion(h, 'change first');
    h.streams[0]!.complete(FIRST_HUNK);
    const conversation = h.answers.conversation(id);
    await waitFor(() => conversation.hunks.counts().pending === 1, 'turn 1’s hunk to be pending');
    await h.answers.ask({ prompt: 'and change second too', depth: 'fast', conversationId: id });
    await waitFor(() => h.streams.length === 2, 'the follow-up');
    // The follow-up (turn 2) streams; the user redirects it.
    await h.answers.redirect(id, 'no, make second return 22');
    const turnOneHunk = conversation.hunks.snapshot().hunks.find((hunk) => hunk.id === '1.0');
    expect(turnOneHunk?.superseded ?? false).toBe(false);
    expect(conversation.hunks.counts()).toMatchObject({ pending: 1, superseded: 0 });
  });

  it('two redirects in 50 ms, the second failing: its Retry still tells the model which hunk was rejected', async () => {
    let failed = false;
    const h = await harness({
      failOpen: (prompt) => {
        if (failed || !prompt.includes('second redirect')) return false;
        failed = true;
        return true;
      },
    });
    const id = await firstQuestion(h);
    h.streams[0]!.complete(FIRST_HUNK);
    const conversation = h.answers.conversation(id);
    await waitFor(() => conversation.hunks.counts().pending === 1, 'the hunk');
    conversation.hunks.reject('1.0');
    const first = h.answers.redirect(id, 'first redirect');
    const second = h.answers.redirect(id, 'second redirect');
    await Promise.all([first, second]);
    // It never went out: the note is not shown as told, and stays for the retry.
    expect(conversation.turn(3)).toMatchObject({ status: 'failed' });
    expect(conversation.turn(3).note).toBeUndefined();
    await h.answers.retry(id, 3, 'fast');
    await waitFor(() => h.streams.length === 2, 'the retry’s stream');
    expect(h.streams[1]!.prompt).toContain('hunk 1 in src/a.ts rejected');
  });
});

describe('one answer streams at a time', () => {
  it('refuses a redirect of a conversation that is not streaming while another one streams', async () => {
    const h = await harness();
    const first = await firstQuestion(h);
    h.streams[0]!.complete(FIRST_HUNK);
    await waitFor(() => !h.answers.isStreaming, 'the first answer to end');
    await h.answers.ask({ prompt: 'change again', depth: 'fast' });
    await waitFor(() => h.streams.length === 2, 'the second answer');
    await expect(h.answers.redirect(first, 'no, differently')).rejects.toMatchObject({ code: 'already-streaming' });
    expect(h.streams).toHaveLength(2);
    expect(h.maxOpen()).toBe(1);
  });
});

describe('Retry after a failure mid-answer', () => {
  const INSERT = "*** Begin Patch\n*** Update File: src/a.ts\n@@ export function first() {\n+  console.log('first');\n   return 1;\n*** End Patch\n";

  it('Retry replaces the failed turn like a redirect: Accept all writes the retried change once, not the failed turn’s copy too', async () => {
    const h = await harness();
    const id = await firstQuestion(h, 'log in first');
    // The answer's hunk arrives whole, then the connection drops before the answer ends.
    h.streams[0]!.sink.onDelta(INSERT);
    h.streams[0]!.end({ outcome: 'failed', message: 'The connection dropped.', failure: { code: 'connection-lost' } });
    const conversation = h.answers.conversation(id);
    await waitFor(() => conversation.hunks.counts().pending === 1, 'the failed turn’s complete hunk');
    // Retry (same model): the model answers the same change again.
    await h.answers.retry(id, 1, 'fast');
    await waitFor(() => h.streams.length === 2, 'the retry');
    h.streams[1]!.complete(INSERT);
    await waitFor(() => conversation.hunks.snapshot().hunks.every((hunk) => hunk.state !== 'streaming'), 'the retry’s hunk');
    await conversation.hunks.acceptAll();
    const text = await readFile(h.project.path('src/a.ts'), 'utf8');
    expect(text.split("console.log('first');").length - 1).toBe(1);
  });
});

describe('history kept on disk', () => {
  it('a rejection made before Flint closed is still told to the model with the next turn after a restart', async () => {
    const h = await harness({ history: true });
    const id = await firstQuestion(h);
    h.streams[0]!.complete(FIRST_HUNK);
    await waitFor(() => h.answers.conversation(id).hunks.counts().pending === 1, 'the hunk');
    h.answers.conversation(id).hunks.reject('1.0');
    await tick(100);
    // Flint quits and starts again: the project closes (history written) and opens.
    await h.workspace.close('closed', 'quitting');
    await h.answers.flush();
    await h.workspace.open(h.project.root);
    await waitFor(() => h.answers.conversations().some((summary) => summary.sessionId === id), 'the history to come back');
    await h.answers.ask({ prompt: 'now do it differently', depth: 'fast', conversationId: id });
    await waitFor(() => h.streams.length === 2, 'the follow-up');
    expect(h.streams[1]!.prompt).toContain('hunk 1 in src/a.ts rejected');
  });

  it('a hunk whose write finished after the project began to close is kept as accepted (not "applying", which comes back as a conflict)', async () => {
    const h = await harness({ history: true });
    const id = await firstQuestion(h);
    h.streams[0]!.complete(FIRST_HUNK);
    const hunks = h.answers.conversation(id).hunks;
    await waitFor(() => hunks.counts().pending === 1, 'the hunk');
    const accepting = hunks.accept('1.0');
    const closing = h.workspace.close('closed', 'quitting');
    expect(await accepting).toBe('accepted');
    await closing;
    await h.answers.flush();
    expect(await readFile(h.project.path('src/a.ts'), 'utf8')).toContain('return 10;');
    const file = JSON.parse(await readFile(ConversationStore.fileFor(h.historyFolder, h.project.root), 'utf8')) as {
      records: Array<{ board: { hunks: Array<{ id: string; state: string }> } }>;
    };
    expect(file.records[0]!.board.hunks.find((hunk) => hunk.id === '1.0')?.state).toBe('accepted');
  });
});

describe('what a follow-up tells the model of earlier turns', () => {
  it('bounds the user’s earlier words like the model’s prose (a long paste is not resent eight times)', () => {
    const paste = 'x'.repeat(300_000);
    const turns = Array.from({ length: 8 }, (_, index) => ({
      index: index + 1,
      kind: 'follow-up' as const,
      text: paste,
      depth: 'fast' as const,
      model: 'fast-m',
      status: 'complete' as const,
      prose: 'ok',
      askedAtEpochMs: 0,
      startedAtEpochMs: 0,
    }));
    const sent = historyMessages(turns).reduce((sum, message) => sum + message.text.length, 0);
    expect(sent).toBeLessThan(8 * 2 * 4_100);
  });
});

// ---------------------------------------------------------------------------------------
// The renderer's copy of the conversation (use-answer.ts + use-conversation-sync.ts), run
// with a stand-in React (hooks as plain calls) and a stand-in `flint`.
