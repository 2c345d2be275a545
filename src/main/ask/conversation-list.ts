/**
 * The open project's conversations: the history list, kept in the user-data folder
 * (conversation-store.ts) so it survives a reload and a restart, and bounded in memory.
 * Nothing undecided is dropped: a conversation with hunks awaiting a decision is let go
 * only when the list is full of such conversations.
 */
import type { ConversationSummary } from '../../shared/ask-types';
import type { Disposable } from '../lifecycle';
import type { Logger } from '../logger';
import type { Conversation } from './conversation';
import { hasUndecidedWork, parseConversationRecord, slimRecord, type ConversationRecord } from './conversation-record';
import { ConversationStore, DEFAULT_MAX_COUNT } from './conversation-store';

/** How often, at most, the history list is sent to the renderer (decisions come in bursts: Accept all). */
const SUMMARY_DELAY_MS = 50;

export interface ConversationListOptions {
  /** Where histories are kept, one file per project; null keeps nothing (tests). */
  folder: string | null;
  logger: Logger;
  /** The history list changed. */
  onDidChange: (summaries: ConversationSummary[]) => void;
  /** Something the user should know (a history file set aside). */
  onNotice: (message: string) => void;
}

export class ConversationList implements Disposable {
  /** Oldest first. */
  private readonly conversations = new Map<string, Conversation>();
  private store: ConversationStore<ConversationRecord> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ConversationListOptions) {}

  /** Reads the project's kept conversations; `restore` makes each live again (none if the project went meanwhile). */
  async load(projectRoot: string, restore: (record: ConversationRecord) => Conversation, isStillOpen: () => boolean): Promise<void> {
    if (this.options.folder === null) return;
    const opened = await ConversationStore.open<ConversationRecord>({
      folder: this.options.folder,
      projectRoot,
      parse: parseConversationRecord,
      isPrecious: hasUndecidedWork,
      slim: slimRecord,
      logger: this.options.logger,
    });
    if (!isStillOpen()) return opened.store.dispose();
    this.store = opened.store;
    if (opened.notice) this.options.onNotice(opened.notice);
    // Conversations asked while the file was read are newer: they stay last.
    const asked = [...this.conversations.values()];
    this.conversations.clear();
    for (const record of opened.records) {
      try {
        this.conversations.set(record.id, restore(record));
      } catch (error) {
        this.options.logger.error(`restoring conversation ${record.id} failed`, error);
      }
    }
    for (const conversation of asked) this.conversations.set(conversation.id, conversation);
    this.changed();
  }

  add(conversation: Conversation): void {
    this.conversations.set(conversation.id, conversation);
    this.prune(conversation);
    this.changed();
  }

  get(id: string): Conversation | undefined {
    return this.conversations.get(id);
  }

  all(): Conversation[] {
    return [...this.conversations.values()];
  }

  /** Newest first, for the history list. */
  summaries(): ConversationSummary[] {
    return this.all()
      .map((conversation) => conversation.summary())
      .reverse();
  }

  /** A conversation changed: the list goes to the renderer and the file is written (both soon, coalesced). */
  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.options.onDidChange(this.summaries());
      this.store?.save(this.all().map((conversation) => conversation.record()));
    }, SUMMARY_DELAY_MS);
  }

  /**
   * The project is closing: every conversation stops now (its hunks go before the
   * project's edits do), and is written once `writesLanded` (an accept in flight is kept
   * as what it became).
   */
  async close(writesLanded: Promise<unknown> = Promise.resolve()): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const store = this.store;
    const conversations = this.all();
    this.store = null;
    this.conversations.clear();
    // Said as what happened (Flint closed them), before their streams are cancelled.
    for (const conversation of conversations) conversation.interrupt();
    for (const conversation of conversations) conversation.dispose();
    this.options.onDidChange([]);
    if (!store) return;
    await writesLanded;
    store.save(conversations.map((conversation) => conversation.record()));
    store.dispose();
    await store.flush();
  }

  dispose(): void {
    void this.close();
  }

  /** Past the bound, the oldest conversations with nothing undecided go first; one that streams, or the one just added, never does. */
  private prune(added: Conversation): void {
    const over = this.conversations.size - DEFAULT_MAX_COUNT;
    if (over <= 0) return;
    const candidates = this.all().filter((conversation) => !conversation.isStreaming && conversation !== added);
    const settled = candidates.filter((conversation) => conversation.summary().pending + conversation.summary().superseded === 0);
    const unsettled = candidates.filter((conversation) => !settled.includes(conversation));
    for (const conversation of [...settled, ...unsettled].slice(0, over)) {
      if (!settled.includes(conversation)) this.options.onNotice(`The history is full of conversations with undecided hunks: the oldest, “${conversation.summary().title}”, was let go.`);
      conversation.dispose();
      this.conversations.delete(conversation.id);
    }
  }
}
