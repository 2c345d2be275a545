import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bothFunctionsPatch, TWO_FUNCTIONS } from '../../../test/fixtures/conversation-answers';
import { answersOnSim, type AnswersOnSim, type AnswersRun } from '../../../test/helpers/answers-on-sim';
import { waitFor } from '../../../test/helpers/temp-project';

const ORIGINAL = TWO_FUNCTIONS;
const TWO_HUNKS = `Changing both functions.\n${bothFunctionsPatch('src/app.ts')}`;
const FIRST_ONLY = `Only the first.
*** Begin Patch
*** Update File: src/app.ts
@@ export function first
-  return 1;
+  return 100;
*** End Patch
`;

const SCRIPT = {
  rules: [
    // Newest words first: follow-ups carry the earlier turns.
    { match: { inputIncludes: 'then explain' }, answer: { text: 'Explained after the first.\n' } },
    { match: { inputIncludes: 'only the first' }, answer: { text: FIRST_ONLY } },
    { match: { inputIncludes: 'fail once' }, fault: 'server-error' as const, times: 1 },
    { match: { inputIncludes: 'rate limit once' }, fault: 'rate-limited' as const, times: 1 },
    { match: { inputIncludes: 'change both' }, answer: { text: TWO_HUNKS } },
  ],
};

describe('AnswerService conversations, on the simulator and a real project', () => {
  let flint: AnswersOnSim;
  let run: AnswersRun;

  const setUp = async (tokensPerSecond = 20_000) => {
    flint = await answersOnSim({ files: { 'src/app.ts': ORIGINAL }, script: SCRIPT, tokensPerSecond });
    run = await flint.start();
    run.workspace.requireProject().currentFile.select('src/app.ts');
  };
  const read = () => readFile(flint.project.path('src/app.ts'), 'utf8');
  const sent = (text: string) => flint.sim.requests.filter((request) => JSON.stringify(request.body).includes(text));

  afterEach(async () => {
    await flint?.close();
  });

  it('sends a queued message when the answer ends, and says when it took effect', async () => {
    await setUp(300);
    const { sessionId } = await run.answers.ask({ prompt: 'change both', depth: 'fast' });
    await run.answers.queue(sessionId, 'then explain', 'fast');
    const conversation = run.answers.conversation(sessionId);
    expect(conversation.turn(2)).toMatchObject({ kind: 'queued', status: 'queued' });
    expect(sent('then explain')).toHaveLength(0);
    await waitFor(() => conversation.turn(2).status === 'complete', 'the queued turn to be answered');
    expect(conversation.turn(1).status).toBe('complete');
    expect(conversation.turn(2).startedAtEpochMs).toBeGreaterThanOrEqual(conversation.turn(1).endedAtEpochMs!);
    // Nothing was superseded: queueing is not a redirect.
    expect(conversation.summary()).toMatchObject({ pending: 2, superseded: 0 });
  });

  it('does not send a queued message after the user stopped the answer: it waits, failed, for Retry', async () => {
    await setUp(200);
    const { sessionId } = await run.answers.ask({ prompt: 'change both', depth: 'fast' });
    await run.answers.queue(sessionId, 'then explain', 'fast');
    run.answers.stop(sessionId);
    const conversation = run.answers.conversation(sessionId);
    await waitFor(() => conversation.turn(2).status === 'failed', 'the queued turn to be set aside');
    expect(conversation.turn(2).message).toContain('Not sent: the answer it waited for was stopped');
    expect(sent('then explain')).toHaveLength(0);
    await run.answers.retry(sessionId, 2, 'fast');
    await waitFor(() => conversation.turn(3).status === 'complete', 'the retry');
    expect(conversation.turn(3)).toMatchObject({ kind: 'retry', text: 'then explain' });
  });

  it('keeps a failed turn’s words and retries them, once, as a new turn', async () => {
    await setUp();
    const { sessionId } = await run.answers.ask({ prompt: 'explain, or fail once', depth: 'fast' });
    const conversation = run.answers.conversation(sessionId);
    await waitFor(() => conversation.turn(1).status === 'failed', 'the failure');
    expect(conversation.turn(1)).toMatchObject({ text: 'explain, or fail once', failure: { code: 'server-error', canRetryDeep: true, needsSettings: false } });
    await run.answers.retry(sessionId, 1, 'deep');
    await waitFor(() => conversation.turn(2).status === 'complete', 'the retry');
    expect(conversation.turn(2)).toMatchObject({ kind: 'retry', depth: 'deep', model: 'spark-deep' });
    expect(conversation.turn(1).followedBy).toBe(2);
    await expect(run.answers.retry(sessionId, 1, 'fast')).rejects.toMatchObject({ code: 'invalid-state' });
  });

  it('retries a 429 by itself after retry-after, and a cancelled countdown retries nothing', async () => {
    await setUp();
    const { sessionId } = await run.answers.ask({ prompt: 'explain, rate limit once', depth: 'fast' });
    const conversation = run.answers.conversation(sessionId);
    await waitFor(() => conversation.turn(1).failure?.retryAtEpochMs, 'the countdown');
    await waitFor(() => conversation.summary().turns === 2 && conversation.turn(2).status === 'complete', 'the automatic retry', 8_000);
    expect(conversation.turn(2).kind).toBe('retry');
    const second = await run.answers.ask({ prompt: 'again, rate limit once', depth: 'fast' });
    // A rule that fails once has been used: this one answers. Cancel applies to a countdown only.
    run.answers.cancelRetry(second.sessionId);
    await waitFor(() => run.answers.conversation(second.sessionId).turn(1).status === 'complete', 'the plain answer');
  });

  it('supersedes the earlier turn’s undecided hunks on a redirect, even one that arrives after the answer ended', async () => {
    await setUp();
    const { sessionId } = await run.answers.ask({ prompt: 'change both', depth: 'fast' });
    const conversation = run.answers.conversation(sessionId);
    await waitFor(() => conversation.turn(1).status === 'complete' && conversation.summary().pending === 2, 'both hunks');
    await run.answers.redirect(sessionId, 'no, only the first');
    await waitFor(() => conversation.turn(2).status === 'complete' && run.hunks.get('2.0')?.state === 'pending', 'the replacement');
    expect(conversation.summary()).toMatchObject({ pending: 1, superseded: 2 });
    expect(await conversation.hunks.acceptAll()).toBe(1);
    expect(await read()).toBe(ORIGINAL.replace('return 1;', 'return 100;'));
  });

  it('lets only the last of two redirects sent at once stream, and applies nothing twice', async () => {
    await setUp(300);
    const { sessionId } = await run.answers.ask({ prompt: 'change both', depth: 'fast' });
    const conversation = run.answers.conversation(sessionId);
    await Promise.all([run.answers.redirect(sessionId, 'no, only the first'), run.answers.redirect(sessionId, 'no, only the first, really')]);
    await waitFor(() => conversation.turn(3).status === 'complete', 'the last redirect');
    expect([conversation.turn(1).status, conversation.turn(2).status]).toEqual(['redirected', 'redirected']);
    expect(sent('only the first, really')).toHaveLength(1);
    await conversation.hunks.acceptAll();
    expect(await read()).toBe(ORIGINAL.replace('return 1;', 'return 100;'));
    expect(await conversation.hunks.acceptAll()).toBe(0);
  });

  it('follows up with the earlier turns as messages and the files as they are on disk now', async () => {
    await setUp();
    const { sessionId } = await run.answers.ask({ prompt: 'change both', depth: 'fast' });
    const conversation = run.answers.conversation(sessionId);
    await waitFor(() => conversation.summary().pending === 2, 'both hunks');
    await conversation.hunks.accept('1.0');
    conversation.hunks.reject('1.1');
    await run.answers.ask({ prompt: 'then explain', depth: 'fast', conversationId: sessionId });
    await waitFor(() => conversation.turn(2).status === 'complete', 'the follow-up');
    const body = sent('then explain').at(-1)!.body as { input: Array<{ role: string; content: Array<{ text: string }> }> };
    expect(body.input.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.input[1]!.content[0]!.text).toContain('Changing both functions.');
    const last = body.input[2]!.content[0]!.text;
    expect(last).toContain('hunk 1 in src/app.ts accepted (written to disk); hunk 2 in src/app.ts rejected');
    expect(JSON.stringify(body)).toContain('return 10;');
    expect(conversation.turn(2).note).toContain('hunk 2 in src/app.ts rejected');
  });

  it('keeps conversations and their hunks across a restart, planned again on the files as they are then', async () => {
    await setUp();
    const { sessionId } = await run.answers.ask({ prompt: 'change both', depth: 'fast' });
    // The answer's end, not only its hunks: its stream ends after its last hunk, and stopping before that stops the turn.
    await waitFor(() => run.answers.conversation(sessionId).turn(1).status === 'complete' && run.answers.conversation(sessionId).summary().pending === 2, 'the answer and both hunks');
    run.answers.conversation(sessionId).hunks.reject('1.1');
    await run.stop();
    // While Flint is closed, the user edits the first function's line.
    await writeFile(flint.project.path('src/app.ts'), ORIGINAL.replace('return 1;', 'return 1; // mine'));
    const again = await flint.start();
    await waitFor(() => again.answers.conversations().find((summary) => summary.sessionId === sessionId), 'the kept conversation');
    const restored = again.answers.conversation(sessionId);
    // Its old line is no longer there: not applicable, said as such (never written at a guess).
    await waitFor(() => again.hunks.get('1.0')?.state === 'unmatched', 'the hunk planned again on the changed file');
    expect(restored.turn(1)).toMatchObject({ text: 'change both', status: 'complete' });
    const full = again.answers.full(sessionId);
    expect(full.hunks.map((hunk) => [hunk.id, hunk.state, hunk.appendLines.length])).toEqual([
      ['1.0', 'unmatched', 2],
      ['1.1', 'rejected', 2],
    ]);
    expect(full.prose?.[0]?.text).toContain('Changing both functions.');
  });

  it('sets a damaged history file aside, says where, and starts an empty history', async () => {
    await setUp();
    await run.answers.ask({ prompt: 'change both', depth: 'fast' });
    await run.stop();
    const folder = join(flint.config, 'conversations');
    const [file] = await readdir(folder);
    await writeFile(join(folder, file!), '{"format":"flint-conversations","version":1,"records":[{"id":');
    const again = await flint.start();
    await waitFor(() => again.notices.length > 0, 'the notice');
    expect(again.notices[0]).toContain('.corrupt-');
    expect(again.answers.conversations()).toEqual([]);
    expect((await readdir(folder)).some((name) => name.includes('.corrupt-'))).toBe(true);
  });

  it('restores a conversation whose file was deleted meanwhile as a clear conflict, and writes nothing', async () => {
    await setUp();
    const { sessionId } = await run.answers.ask({ prompt: 'change both', depth: 'fast' });
    await waitFor(() => run.answers.conversation(sessionId).summary().pending === 2, 'both hunks');
    await run.stop();
    await rm(flint.project.path('src/app.ts'));
    const again = await flint.start();
    await waitFor(() => again.hunks.get('1.0')?.state === 'conflict' && again.hunks.get('1.1')?.state === 'conflict', 'both hunks in conflict');
    expect(again.hunks.get('1.0')?.message).toContain('src/app.ts');
    await expect(again.answers.conversation(sessionId).hunks.accept('1.0')).rejects.toMatchObject({ code: 'invalid-state' });
  });
});
