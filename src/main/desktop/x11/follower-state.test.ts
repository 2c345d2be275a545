import { describe, expect, it } from 'vitest';
import { INITIAL_STATE, nextState, retryDelay, RETRY_MAX_MS, type FollowerInput, type FollowerState } from './follower-state';

const run = (inputs: FollowerInput[], from: FollowerState = INITIAL_STATE): FollowerState => inputs.reduce(nextState, from);

describe('the X connection’s states', () => {
  it('connects, follows, and after a loss retries at once', () => {
    expect(run([{ kind: 'connected' }])).toEqual({ kind: 'following' });
    const lost = run([{ kind: 'connected' }, { kind: 'closed', reason: 'the X server closed the connection' }]);
    expect(lost).toEqual({ kind: 'lost', reason: 'the X server closed the connection', attempt: 0, retryInMs: 0 });
    expect(run([{ kind: 'retry' }, { kind: 'connected' }], lost)).toEqual({ kind: 'following' });
  });

  it('backs off while the server keeps refusing: 0.5 s, 1 s, 2 s … 30 s at most', () => {
    const delays: number[] = [];
    let state = INITIAL_STATE;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      state = nextState(state, { kind: 'failed', reason: 'ECONNREFUSED' });
      if (state.kind !== 'lost') throw new Error(`expected lost, got ${state.kind}`);
      delays.push(state.retryInMs);
      state = nextState(state, { kind: 'retry' });
      expect(state).toEqual({ kind: 'connecting', attempt: attempt + 1 });
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000]);
    expect(retryDelay(1000)).toBe(RETRY_MAX_MS);
  });

  it('a working connection resets the back-off', () => {
    const state = run([{ kind: 'failed', reason: 'a' }, { kind: 'retry' }, { kind: 'failed', reason: 'b' }, { kind: 'retry' }, { kind: 'connected' }, { kind: 'closed', reason: 'c' }]);
    expect(state).toEqual({ kind: 'lost', reason: 'c', attempt: 0, retryInMs: 0 });
  });

  it('ignores inputs that mean nothing in a state', () => {
    expect(nextState({ kind: 'following' }, { kind: 'connected' })).toEqual({ kind: 'following' });
    expect(nextState({ kind: 'following' }, { kind: 'retry' })).toEqual({ kind: 'following' });
    expect(nextState(INITIAL_STATE, { kind: 'closed', reason: 'x' })).toEqual(INITIAL_STATE);
    const lost: FollowerState = { kind: 'lost', reason: 'x', attempt: 2, retryInMs: 2000 };
    expect(nextState(lost, { kind: 'connected' })).toBe(lost);
    expect(nextState(lost, { kind: 'closed', reason: 'y' })).toBe(lost);
  });

  it('stays disposed whatever comes after, from any state', () => {
    const states: FollowerState[] = [INITIAL_STATE, { kind: 'following' }, { kind: 'lost', reason: 'x', attempt: 0, retryInMs: 0 }];
    for (const state of states) {
      const disposed = nextState(state, { kind: 'dispose' });
      expect(disposed).toEqual({ kind: 'disposed' });
      expect(run([{ kind: 'connected' }, { kind: 'retry' }, { kind: 'failed', reason: 'x' }, { kind: 'closed', reason: 'y' }], disposed)).toEqual({ kind: 'disposed' });
    }
  });
});
