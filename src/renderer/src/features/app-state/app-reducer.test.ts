import { describe, expect, it } from 'vitest';
import type { AppState } from '../../../../shared/contract';
import type { ServeConnection } from '../../lib/serve-connection';
import { initialViewState, viewReducer, type ViewAction, type ViewState } from './app-reducer';

const reduce = (state: ViewState, ...actions: ViewAction[]): ViewState => actions.reduce(viewReducer, state);
const serve = (connection: ServeConnection | null): ViewAction => ({ type: 'serveConnection', connection });
const notice = (message: string): ViewAction => ({ type: 'notice', level: 'error', message });
const reconnecting: ServeConnection = { state: 'reconnecting', message: 'Lost the connection to Flint; reconnecting…' };
const ended: ServeConnection = { state: 'ended', reason: 'restarted', message: 'This Flint session ended.' };
const messages = (state: ViewState): string[] => state.notices.map((shown) => shown.message);

describe('the view reducer', () => {
  it('stacks ordinary notices, newest last, and keeps the newest four', () => {
    const state = reduce(initialViewState, ...['1', '2', '3', '4', '5'].map(notice));
    expect(messages(state)).toEqual(['2', '3', '4', '5']);
  });

  it('replaces a notice about the same subject in place, with a new id (its time starts again)', () => {
    const undo = (message: string): ViewAction => ({ type: 'notice', level: 'info', message, subject: 'undo' });
    const before = reduce(initialViewState, undo('Undid the change to a.ts.'), notice('Other.'));
    const after = reduce(before, undo('Redid the change to a.ts.'));
    expect(messages(after)).toEqual(['Redid the change to a.ts.', 'Other.']);
    expect(after.notices[0]!.id).not.toBe(before.notices[0]!.id);
  });

  it('takes away the notices about a subject once it is done, and leaves the others', () => {
    const waiting: ViewAction = { type: 'notice', level: 'info', message: 'No hunk is waiting for a decision.', subject: 'review-waiting' };
    const state = reduce(initialViewState, notice('Other.'), waiting, { type: 'subjectDone', subject: 'review-waiting' });
    expect(messages(state)).toEqual(['Other.']);
    expect(reduce(state, { type: 'subjectDone', subject: 'review-waiting' })).toBe(state);
  });

  it('does not stack a notice that says what one on screen already says', () => {
    const state = reduce(initialViewState, notice('Disk full.'), notice('Other.'), notice('Disk full.'));
    expect(messages(state)).toEqual(['Disk full.', 'Other.']);
  });

  it('shows one notice for a lost serve connection however often it is reported', () => {
    const state = reduce(initialViewState, serve(reconnecting), serve(reconnecting), serve({ ...reconnecting }), serve(reconnecting));
    expect(state.notices).toEqual([{ id: expect.any(Number), level: 'warning', message: reconnecting.message, topic: 'serve-connection' }]);
  });

  it('replaces that notice in place when the connection state changes, as an error once the user must act', () => {
    const before = reduce(initialViewState, notice('older'), serve(reconnecting), notice('newer'));
    const after = reduce(before, serve(ended));
    expect(messages(after)).toEqual(['older', ended.message, 'newer']);
    expect(after.notices[1]).toMatchObject({ id: before.notices[1]!.id, level: 'error' });
  });

  it('folds a request failure that gave the same reason first into the connection notice', () => {
    const state = reduce(initialViewState, notice(ended.message), serve(ended), notice(ended.message));
    expect(state.notices).toEqual([expect.objectContaining({ message: ended.message, topic: 'serve-connection' })]);
  });

  it('removes that notice when the connection is back, and leaves the others', () => {
    const state = reduce(initialViewState, notice('unrelated'), serve(reconnecting), serve({ state: 'connected' }));
    expect(messages(state)).toEqual(['unrelated']);
  });

  it('shows nothing while the first connection is on its way, or in Electron (no serve connection)', () => {
    expect(reduce(initialViewState, serve({ state: 'connecting' })).notices).toEqual([]);
    expect(reduce(initialViewState, serve(null)).notices).toEqual([]);
    expect(reduce(initialViewState, serve(reconnecting), serve(null)).notices).toEqual([]);
  });

  it('never lets newer notices push the connection notice out, while still capping the rest', () => {
    const state = reduce(initialViewState, serve(ended), ...['1', '2', '3', '4', '5'].map(notice));
    expect(messages(state)).toEqual([ended.message, '3', '4', '5']);
  });

  it('leaves a dismissed connection notice away until the state changes', () => {
    const shown = reduce(initialViewState, serve(reconnecting));
    const dismissed = reduce(shown, { type: 'dismissNotice', id: shown.notices[0]!.id });
    expect(reduce(dismissed, serve(reconnecting)).notices).toEqual([]);
    expect(messages(reduce(dismissed, serve(ended)))).toEqual([ended.message]);
  });
});

describe('the file on view after a reload', () => {
  it('is shown again only while none is, and only with a project open', () => {
    const project = { id: 1, root: '/p', name: 'p' };
    const open = viewReducer({ ...initialViewState, project }, { type: 'openFileIfNone', path: 'src/a.ts' });
    expect(open.openFile).toBe('src/a.ts');
    expect(viewReducer(open, { type: 'openFileIfNone', path: 'src/b.ts' }).openFile).toBe('src/a.ts');
    expect(viewReducer(initialViewState, { type: 'openFileIfNone', path: 'src/a.ts' }).openFile).toBeNull();
  });
});

describe('the file on view belongs to its project', () => {
  it('a reconnect that finds another project open does not keep the old project’s file on view (ProjectView would remember it under the new project)', () => {
    const a = { id: 1, root: '/work/a', name: 'a' };
    const b = { id: 2, root: '/work/b', name: 'b' };
    const viewingA = { ...initialViewState, project: a, openFile: 'src/index.ts' };
    // What getAppState answers after the serve connection came back: B was opened meanwhile (another tab).
    const state = { project: b, tree: [], entryCount: 0, currentFile: initialViewState.currentFile, recent: [], settings: initialViewState.settings, connection: null, hotkey: null, watchLimit: null } as unknown as AppState;
    const after = viewReducer(viewingA, { type: 'state', state });
    expect(after.project?.id).toBe(2);
    expect(after.openFile).toBeNull();
  });
});

describe('the size warning', () => {
  const home = { id: 3, root: '/home/ada', name: 'ada' };
  const warning = { reason: 'home' as const, entriesFound: 0, scanDone: false };

  it('shows the open project’s warning until it is answered or the project closes, and never another project’s', () => {
    const opened = reduce(initialViewState, { type: 'opened', project: home }, { type: 'sizeWarning', projectId: 3, warning });
    expect(opened.sizeWarning).toEqual(warning);
    expect(reduce(opened, { type: 'sizeWarning', projectId: 2, warning: null }).sizeWarning).toEqual(warning);
    expect(reduce(opened, { type: 'sizeWarning', projectId: 3, warning: null }).sizeWarning).toBeNull();
    expect(reduce(opened, { type: 'closed', projectId: 3 }).sizeWarning).toBeNull();
  });

  it('takes the warning and its count from the state a reload loads, while the held scan sends no more progress', () => {
    const held = { ...warning, entriesFound: 134_416, scanDone: true };
    const state = { project: home, tree: null, entryCount: null, sizeWarning: held, currentFile: initialViewState.currentFile, recent: [], settings: initialViewState.settings, connection: null, hotkey: null, watchLimit: null } as unknown as AppState;
    const loaded = viewReducer(initialViewState, { type: 'state', state });
    expect(loaded.sizeWarning).toEqual(held);
    expect(loaded.indexing).toBe(134_416);
  });
});

describe('the watch limit', () => {
  const project = { id: 4, root: '/src/monorepo', name: 'monorepo' };
  const limit = (count: number) => ({ unwatchedFolders: count, examples: ['packages'], message: `${count} folders are not watched.` });
  const watchLimit = (count: number | null, projectId = 4): ViewAction => ({ type: 'watchLimit', projectId, limit: count === null ? null : limit(count) });
  const limitNotices = (state: ViewState) => state.notices.filter((shown) => shown.topic === 'watch-limit').map((shown) => shown.message);

  it('says so once when it starts, keeps that notice up to date, and takes it away when every folder is watched again', () => {
    const limited = reduce(initialViewState, { type: 'opened', project }, watchLimit(80), watchLimit(81));
    expect(limited.watchLimit).toEqual(limit(81));
    expect(limitNotices(limited)).toEqual(['81 folders are not watched.']);
    const watched = reduce(limited, watchLimit(null));
    expect(watched.watchLimit).toBeNull();
    expect(limitNotices(watched)).toEqual([]);
  });

  it('stays quiet once its notice is dismissed (the status bar still shows it), and shows it again when asked', () => {
    const limited = reduce(initialViewState, { type: 'opened', project }, watchLimit(80));
    const dismissed = reduce(limited, { type: 'dismissNotice', id: limited.notices[0]!.id }, watchLimit(90));
    expect(limitNotices(dismissed)).toEqual([]);
    expect(dismissed.watchLimit).toEqual(limit(90));
    expect(limitNotices(reduce(dismissed, { type: 'showWatchLimit' }))).toEqual(['90 folders are not watched.']);
  });

  it('says it when a page loads into it, and not again at the next load once dismissed', () => {
    const state = { ...initialViewState, project, tree: null, entryCount: null, sizeWarning: null, watchLimit: limit(80), lastLatency: null } as unknown as AppState;
    const loaded = viewReducer(initialViewState, { type: 'state', state });
    expect(loaded.watchLimit).toEqual(limit(80));
    expect(limitNotices(loaded)).toEqual(['80 folders are not watched.']);
    const dismissed = reduce(loaded, { type: 'dismissNotice', id: loaded.notices[0]!.id }, { type: 'state', state });
    expect(limitNotices(dismissed)).toEqual([]);
  });

  it('ignores another project’s, and goes with the project', () => {
    const opened = reduce(initialViewState, { type: 'opened', project });
    expect(reduce(opened, watchLimit(80, 3))).toBe(opened);
    const closed = reduce(opened, watchLimit(80), { type: 'closed', projectId: 4 });
    expect(closed.watchLimit).toBeNull();
    expect(limitNotices(closed)).toEqual([]);
  });
});
