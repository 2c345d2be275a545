/**
 * Conversations driven by hand, for tests and benches: a real Conversation with its
 * streams opened by the caller, and one call to add a turn and send it.
 */
import type { TurnKind, TurnView } from '../../src/shared/ask-types';
import { Conversation, type ConversationOptions } from '../../src/main/ask/conversation';
import type { BuiltPrompt } from '../../src/main/ask/prompt-builder';
import type { FileText } from '../../src/main/fs/file-text';
import type { ModelStream, StreamSink } from '../../src/main/inference/model-stream';

export interface HandConversationOptions extends Partial<Omit<ConversationOptions, 'openStream'>> {
  id: string;
  openBoard: ConversationOptions['openBoard'];
  /** Opens each turn's stream (the turn's prompt and its sink). */
  openStream: (prompt: BuiltPrompt, sink: StreamSink, keypressEpochMs?: number) => Promise<ModelStream>;
}

export function conversationFor(options: HandConversationOptions): Conversation {
  const { openStream, ...rest } = options;
  return new Conversation({
    emit: () => undefined,
    focus: { focus: 'whole-file' },
    onDidChange: () => undefined,
    failureOptions: () => ({ deepModel: null }),
    ...rest,
    openStream: (prompt, _depth, sink, keypressEpochMs) => openStream(prompt, sink, keypressEpochMs),
  });
}

/** Adds a turn (a question, unless said) and sends it with `prompt`, the files shown being `shown`. */
export async function startTurn(
  conversation: Conversation,
  prompt: BuiltPrompt,
  shown: ReadonlyMap<string, FileText>,
  options: { kind?: TurnKind; keypressEpochMs?: number; text?: string } = {},
): Promise<TurnView> {
  const turn = conversation.addTurn({ kind: options.kind ?? 'question', text: options.text ?? prompt.input, depth: 'fast', model: 'test-model' });
  await conversation.open(turn, prompt, shown, options.keypressEpochMs);
  return turn;
}
