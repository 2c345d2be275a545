import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../test/helpers/seeded-random';
import {
  initialServeLink,
  nextServeLink,
  NO_TOKEN_MESSAGE,
  NOT_ANSWERING_AFTER_MS,
  NOT_ANSWERING_MESSAGE,
  RECONNECTING_MESSAGE,
  REFUSALS_BEFORE_GIVING_UP,
  REFUSED_MESSAGE,
  RESTARTED_MESSAGE,
  sameServeConnection,
  shouldRetry,
  UNREACHABLE_MESSAGE,
  type ServeLink,
  type ServeLinkEvent,
} from './serve-connection';

const run = (link: ServeLink, ...events: ServeLinkEvent[]): ServeLink => events.reduce(nextServeLink, link);
/** A page connected to instance `A`, as it is before anything goes wrong. */
const connectedToA = (): ServeLink => run(initialServeLink(true), { type: 'connected', instance: 'A' });
/** One failed attempt at `at` and the probe that followed it. */
const failedAttempt = (at: number, instance: string | null): ServeLinkEvent[] => [
  { type: 'failed', at },
  { type: 'probed', at, instance },
];

describe('the serve link', () => {
  it('starts connecting when the page has a token, with nothing to say yet', () => {
    const link = initialServeLink(true);
    expect(link.connection).toEqual({ state: 'connecting' });
    expect(shouldRetry(link)).toBe(true);
  });

  it('ends at once without a token, says how to get one, and never tries', () => {
    const link = initialServeLink(false);
    expect(link.connection).toEqual({ state: 'ended', reason: 'no-token', message: NO_TOKEN_MESSAGE });
    expect(shouldRetry(link)).toBe(false);
  });

  it('is connected once a socket is admitted, and remembers which instance let it in', () => {
    const link = connectedToA();
    expect(link.connection).toEqual({ state: 'connected' });
    expect(link.instance).toBe('A');
  });

  it('keeps the instance it knew when the admitted socket could not learn one', () => {
    const link = run(connectedToA(), { type: 'lost', at: 0, reason: '' }, { type: 'connected', instance: null });
    expect(link.instance).toBe('A');
  });

  it('says it lost the connection and is reconnecting when an open socket closes', () => {
    const link = run(connectedToA(), { type: 'lost', at: 5, reason: '' });
    expect(link.connection).toEqual({ state: 'reconnecting', message: RECONNECTING_MESSAGE });
    expect(link.lostAt).toBe(5);
    expect(shouldRetry(link)).toBe(true);
  });

  it("passes on the server's reason when it closed the socket with one", () => {
    const link = run(connectedToA(), { type: 'lost', at: 0, reason: 'Too many Flint pages are connected (16); close one and reload.' });
    expect(link.connection).toMatchObject({ state: 'reconnecting', message: expect.stringContaining('Too many Flint pages') });
  });

  it('says it cannot reach Flint when the very first attempt fails', () => {
    const link = run(initialServeLink(true), { type: 'failed', at: 0 });
    expect(link.connection).toEqual({ state: 'reconnecting', message: UNREACHABLE_MESSAGE });
  });

  it('shows the same state through every retry while nothing answers, for less than the limit', () => {
    let link = run(connectedToA(), { type: 'lost', at: 0, reason: '' });
    const shown = link.connection;
    for (let at = 250; at < NOT_ANSWERING_AFTER_MS; at += 1000) {
      link = run(link, ...failedAttempt(at, null));
      expect(link.connection).toEqual(shown);
    }
  });

  it('says plainly that Flint is not answering once nothing has answered for the limit, and keeps trying', () => {
    const link = run(connectedToA(), { type: 'lost', at: 1000, reason: '' }, ...failedAttempt(1000 + NOT_ANSWERING_AFTER_MS, null));
    expect(link.connection).toEqual({ state: 'not-answering', message: NOT_ANSWERING_MESSAGE });
    expect(shouldRetry(link)).toBe(true);
  });

  it('counts the time without an answer from the latest loss, not an earlier one', () => {
    const link = run(
      connectedToA(),
      { type: 'lost', at: 0, reason: '' },
      { type: 'connected', instance: 'A' },
      { type: 'lost', at: NOT_ANSWERING_AFTER_MS, reason: '' },
      ...failedAttempt(NOT_ANSWERING_AFTER_MS + 1, null),
    );
    expect(link.connection.state).toBe('reconnecting');
  });

  it('ends the session when another instance of Flint answers: Flint was restarted', () => {
    const link = run(connectedToA(), { type: 'lost', at: 0, reason: '' }, ...failedAttempt(300, 'B'));
    expect(link.connection).toEqual({ state: 'ended', reason: 'restarted', message: RESTARTED_MESSAGE });
    expect(shouldRetry(link)).toBe(false);
  });

  it('ends the session on a restart even after saying Flint was not answering', () => {
    const link = run(
      connectedToA(),
      { type: 'lost', at: 0, reason: '' },
      ...failedAttempt(NOT_ANSWERING_AFTER_MS, null),
      ...failedAttempt(NOT_ANSWERING_AFTER_MS + 5000, 'B'),
    );
    expect(link.connection).toMatchObject({ state: 'ended', reason: 'restarted' });
  });

  it('gives up, saying the token is refused, when the same instance answers but sockets keep failing', () => {
    let link = run(connectedToA(), { type: 'lost', at: 0, reason: '' });
    for (let attempt = 1; attempt < REFUSALS_BEFORE_GIVING_UP; attempt++) {
      link = run(link, ...failedAttempt(attempt, 'A'));
      expect(link.connection.state).toBe('reconnecting');
    }
    link = run(link, ...failedAttempt(REFUSALS_BEFORE_GIVING_UP, 'A'));
    expect(link.connection).toEqual({ state: 'ended', reason: 'refused', message: REFUSED_MESSAGE });
    expect(shouldRetry(link)).toBe(false);
  });

  it('gives up on a page that never connected when a live Flint keeps refusing it (a reload after a restart)', () => {
    let link = initialServeLink(true);
    for (let attempt = 0; attempt < REFUSALS_BEFORE_GIVING_UP; attempt++) link = run(link, ...failedAttempt(attempt, 'B'));
    expect(link.connection).toMatchObject({ state: 'ended', reason: 'refused' });
  });

  it('knows a restart on a reloaded page that remembers which instance admitted its token', () => {
    const link = run(initialServeLink(true, 'A'), ...failedAttempt(0, 'B'));
    expect(link.connection).toMatchObject({ state: 'ended', reason: 'restarted' });
  });

  it('starts counting refusals again after a probe that got no answer', () => {
    let link = run(connectedToA(), { type: 'lost', at: 0, reason: '' });
    for (let attempt = 1; attempt < REFUSALS_BEFORE_GIVING_UP; attempt++) link = run(link, ...failedAttempt(attempt, 'A'));
    link = run(link, ...failedAttempt(10, null), ...failedAttempt(11, 'A'));
    expect(link.connection.state).toBe('reconnecting');
  });

  it('no longer says Flint is not answering once it answers again', () => {
    const link = run(
      connectedToA(),
      { type: 'lost', at: 0, reason: '' },
      ...failedAttempt(NOT_ANSWERING_AFTER_MS, null),
      ...failedAttempt(NOT_ANSWERING_AFTER_MS + 1, 'A'),
    );
    expect(link.connection).toEqual({ state: 'reconnecting', message: RECONNECTING_MESSAGE });
  });

  it('is connected again after a reconnect, with the refusals and the loss forgotten', () => {
    const link = run(connectedToA(), { type: 'lost', at: 0, reason: '' }, ...failedAttempt(1, 'A'), { type: 'connected', instance: 'A' });
    expect(link).toEqual(connectedToA());
  });

  it('ignores a probe answer that arrives after the reconnect', () => {
    const connected = run(connectedToA(), { type: 'lost', at: 0, reason: '' }, { type: 'connected', instance: 'A' });
    expect(nextServeLink(connected, { type: 'probed', at: 1, instance: 'B' })).toBe(connected);
  });

  it('stays ended whatever the socket and the probes do later', () => {
    const ended = run(connectedToA(), { type: 'lost', at: 0, reason: '' }, ...failedAttempt(1, 'B'));
    const later: ServeLinkEvent[] = [
      { type: 'connected', instance: 'B' },
      { type: 'lost', at: 2, reason: 'bye' },
      ...failedAttempt(3, null),
      ...failedAttempt(NOT_ANSWERING_AFTER_MS * 2, 'A'),
    ];
    for (const event of later) expect(nextServeLink(ended, event)).toBe(ended);
  });

  it('starts over with a new token, even after the session ended', () => {
    const ended = run(connectedToA(), { type: 'lost', at: 0, reason: '' }, ...failedAttempt(1, 'B'));
    const fresh = nextServeLink(ended, { type: 'token' });
    expect(fresh).toEqual(initialServeLink(true));
    expect(run(fresh, { type: 'connected', instance: 'B' }).instance).toBe('B');
  });

  it('shows at most two messages however many attempts fail while Flint is down, in any timing', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const random = seededRandom(seed);
      let link = run(connectedToA(), { type: 'lost', at: 0, reason: '' });
      const shown = [link.connection];
      let at = 0;
      for (let attempt = 0; attempt < 40; attempt++) {
        at += Math.floor(random() * 6000);
        link = run(link, ...failedAttempt(at, null));
        if (!sameServeConnection(shown.at(-1)!, link.connection)) shown.push(link.connection);
      }
      expect(shown.map((connection) => connection.state), `seed ${seed}`).toEqual(
        at >= NOT_ANSWERING_AFTER_MS ? ['reconnecting', 'not-answering'] : ['reconnecting'],
      );
    }
  });
});

describe('sameServeConnection', () => {
  it('is true for the same state and message, and false when either differs', () => {
    expect(sameServeConnection({ state: 'connected' }, { state: 'connected' })).toBe(true);
    expect(sameServeConnection({ state: 'reconnecting', message: 'a' }, { state: 'reconnecting', message: 'a' })).toBe(true);
    expect(sameServeConnection({ state: 'reconnecting', message: 'a' }, { state: 'reconnecting', message: 'b' })).toBe(false);
    expect(sameServeConnection({ state: 'reconnecting', message: 'a' }, { state: 'not-answering', message: 'a' })).toBe(false);
    expect(sameServeConnection(null, { state: 'connecting' })).toBe(false);
    expect(sameServeConnection(null, null)).toBe(true);
  });
});
