/**
 * The renderer's copy of a conversation against the order main's messages really arrive in:
 * a new question's first batches and the history list can come before askModel answers.
 */
import { describe, expect, it, vi } from 'vitest';
import type { AnswerUpdate } from '../../../../shared/ask-types';

/**
 * Lets every promise settle: the hook's work here is promise chains only (the fakes answer
 * in microtasks, and requestAnimationFrame never fires), and a timer runs only after the
 * microtask queue is empty. Ordering, not a deadline: a busy machine only makes it later.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

// React and `window.flint` stood in for: the hook's logic, not a browser, is under test here.
const fake = vi.hoisted(() => ({
  handlers: new Map<string, (payload: unknown) => void>(),
  askModel: (_input: unknown): Promise<unknown> => Promise.reject(new Error('not set')),
  getConversation: (_input: unknown): Promise<unknown> => Promise.reject(new Error('not set')),
  listConversations: (_input: unknown): Promise<unknown> => Promise.resolve({ ok: true, value: [] }),
  state: [] as Array<{ value: unknown }>,
}));
vi.mock('react', () => ({
  useState: (init: unknown) => {
    const holder = { value: typeof init === 'function' ? (init as () => unknown)() : init };
    fake.state.push(holder);
    return [holder.value, (next: unknown) => (holder.value = typeof next === 'function' ? (next as (value: unknown) => unknown)(holder.value) : next)];
  },
  useRef: (init: unknown) => ({ current: init }),
  useCallback: (fn: unknown) => fn,
  useEffect: (fn: () => void) => void fn(),
}));
vi.mock('../../lib/flint', () => ({
  flint: {
    on: (name: string, handler: (payload: unknown) => void) => {
      fake.handlers.set(name, handler);
      return () => fake.handlers.delete(name);
    },
    askModel: (input: unknown) => fake.askModel(input),
    getConversation: (input: unknown) => fake.getConversation(input),
    listConversations: (input: unknown) => fake.listConversations(input),
    acknowledgeAnswer: async () => ({ ok: true, value: null }),
  },
}));
vi.mock('../../lib/serve-bridge', () => ({ RECONNECTED_EVENT: 'flint:reconnected' }));
vi.mock('../../lib/paint-marks', () => ({ markPainted: () => undefined, markLatency: () => undefined }));

describe('useAnswer: a new question and the history list', () => {
  it('the first question in an empty history shows every line main sent, even when the history list arrives before askModel answers', async () => {
    const globals = globalThis as Record<string, unknown>;
    globals.window ??= { addEventListener: () => undefined, removeEventListener: () => undefined };
    globals.requestAnimationFrame ??= () => 0;
    const storage = new Map<string, string>();
    globals.sessionStorage ??= { getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => storage.set(key, value) };
    const { useAnswer } = await import('./use-answer');

    fake.listConversations = async () => ({ ok: true, value: [] });
    const answer = useAnswer(() => undefined);
    await settle();

    let answerAsk: (value: unknown) => void = () => undefined;
    fake.askModel = () => new Promise((resolve) => (answerAsk = resolve));
    let answerGet: (value: unknown) => void = () => undefined;
    fake.getConversation = () => new Promise((resolve) => (answerGet = resolve));

    const S = '11111111-1111-4111-8111-111111111111';
    const hunk = (lines: string[]) => ({ id: '1.0', turn: 1, number: 1, fileIndex: 0, path: 'src/a.ts', operation: 'update', state: 'streaming', anchorLine: null, appendLines: lines.map((text) => ({ kind: 'add', text })) });
    const update = (value: AnswerUpdate) => fake.handlers.get('ask:update')!(value);

    const sent = answer.send('change first', 'fast', 'new', { focus: 'whole-file', path: 'src/a.ts' });
    update({ sessionId: S, status: 'streaming', hunks: [hunk(['line one'])] } as unknown as AnswerUpdate);
    // Main's history list (sent 50 ms after the conversation began) arrives first…
    fake.handlers.get('ask:conversations')!([{ sessionId: S, title: 'change first', createdAtEpochMs: 0, updatedAtEpochMs: 0, status: 'streaming', turns: 1, pending: 0, superseded: 0 }]);
    // …then another batch, then askModel's answer, then the whole conversation.
    update({ sessionId: S, hunks: [hunk(['line two'])] } as unknown as AnswerUpdate);
    answerAsk({ ok: true, value: { sessionId: S } });
    await sent;
    answerGet({ ok: true, value: { sessionId: S, full: { title: 'change first' }, status: 'streaming', turns: [], prose: [], problems: [], hunks: [hunk(['line one', 'line two'])] } });
    await settle();

    expect(answer.lines.linesOf('1.0').map((line: { text: string }) => line.text)).toEqual(['line one', 'line two']);
  });
});
