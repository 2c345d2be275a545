import { describe, expect, it } from 'vitest';
import type { TurnStatus } from '../../shared/ask-types';
import { isTurnOver, nextTurnStatus, type TurnEvent } from './turn-state';

const STATUSES: TurnStatus[] = ['queued', 'streaming', 'complete', 'stopped', 'failed', 'redirected'];
const EVENTS: TurnEvent[] = ['send', 'completed', 'cancelled', 'failed', 'redirected', 'interrupted', 'not-sent'];

describe('the turn state machine', () => {
  it('sends a queued turn, or fails it when it can no longer be sent', () => {
    expect(nextTurnStatus('queued', 'send')).toBe('streaming');
    expect(nextTurnStatus('queued', 'not-sent')).toBe('failed');
    expect(nextTurnStatus('queued', 'completed')).toBeNull();
  });

  it('ends a streaming turn in exactly one way per event', () => {
    expect(nextTurnStatus('streaming', 'completed')).toBe('complete');
    expect(nextTurnStatus('streaming', 'cancelled')).toBe('stopped');
    expect(nextTurnStatus('streaming', 'failed')).toBe('failed');
    expect(nextTurnStatus('streaming', 'redirected')).toBe('redirected');
    expect(nextTurnStatus('streaming', 'interrupted')).toBe('stopped');
    expect(nextTurnStatus('streaming', 'not-sent')).toBe('failed');
    expect(nextTurnStatus('streaming', 'send')).toBeNull();
  });

  it('never moves a turn that is over (a late end of a redirected turn changes nothing)', () => {
    for (const status of STATUSES.filter(isTurnOver)) for (const event of EVENTS) expect(nextTurnStatus(status, event)).toBeNull();
  });

  it('answers every status and event pair', () => {
    for (const status of STATUSES) for (const event of EVENTS) expect(nextTurnStatus(status, event) === null || STATUSES.includes(nextTurnStatus(status, event)!)).toBe(true);
  });
});
