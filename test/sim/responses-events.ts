/**
 * Builds Responses API streaming events in the order and shape the real server sends
 * (response.created → in_progress → output_item.added → content_part.added → deltas →
 * output_text.done → content_part.done → output_item.done → response.completed).
 */
import { randomBytes } from 'node:crypto';

export type ServerEvent = Record<string, unknown> & { type: string };

const id = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface ResponseDraft {
  id: string;
  model: string;
  createdAt: number;
  previousResponseId: string | null;
  /** What kind of output item this response streams. */
  output: { kind: 'text' } | { kind: 'tool'; name: string; callId: string };
  itemId: string;
}

export function newResponseDraft(model: string, previousResponseId: string | null, output: ResponseDraft['output']): ResponseDraft {
  return {
    id: id('resp'),
    model,
    createdAt: Math.floor(Date.now() / 1000),
    previousResponseId,
    output,
    itemId: output.kind === 'text' ? id('msg') : id('ctc'),
  };
}

/** Numbers events 0, 1, 2… within one response, as the server does. */
export class EventSequence {
  private next = 0;
  stamp(event: { type: string } & Record<string, unknown>): ServerEvent {
    return { ...event, sequence_number: this.next++ };
  }
}

function responseObject(draft: ResponseDraft, status: string, output: unknown[], usage: unknown): Record<string, unknown> {
  return {
    id: draft.id,
    object: 'response',
    created_at: draft.createdAt,
    status,
    error: null,
    incomplete_details: null,
    model: draft.model,
    output,
    previous_response_id: draft.previousResponseId,
    usage,
  };
}

function item(draft: ResponseDraft, status: 'in_progress' | 'completed', text: string): Record<string, unknown> {
  if (draft.output.kind === 'tool') {
    return { id: draft.itemId, type: 'custom_tool_call', status, call_id: draft.output.callId, name: draft.output.name, input: text };
  }
  const content = status === 'completed' ? [{ type: 'output_text', annotations: [], text }] : [];
  return { id: draft.itemId, type: 'message', status, role: 'assistant', content };
}

export function openingEvents(draft: ResponseDraft, sequence: EventSequence): ServerEvent[] {
  const events = [
    sequence.stamp({ type: 'response.created', response: responseObject(draft, 'in_progress', [], null) }),
    sequence.stamp({ type: 'response.in_progress', response: responseObject(draft, 'in_progress', [], null) }),
    sequence.stamp({ type: 'response.output_item.added', output_index: 0, item: item(draft, 'in_progress', '') }),
  ];
  if (draft.output.kind === 'text') {
    events.push(
      sequence.stamp({
        type: 'response.content_part.added',
        item_id: draft.itemId,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', annotations: [], text: '' },
      }),
    );
  }
  return events;
}

export function deltaEvent(draft: ResponseDraft, sequence: EventSequence, delta: string): ServerEvent {
  return draft.output.kind === 'text'
    ? sequence.stamp({ type: 'response.output_text.delta', item_id: draft.itemId, output_index: 0, content_index: 0, delta, logprobs: [] })
    : sequence.stamp({ type: 'response.custom_tool_call_input.delta', item_id: draft.itemId, output_index: 0, delta });
}

export function closingEvents(draft: ResponseDraft, sequence: EventSequence, text: string, usage: Usage): ServerEvent[] {
  const done = item(draft, 'completed', text);
  const events: ServerEvent[] = [];
  if (draft.output.kind === 'text') {
    events.push(
      sequence.stamp({ type: 'response.output_text.done', item_id: draft.itemId, output_index: 0, content_index: 0, text, logprobs: [] }),
      sequence.stamp({
        type: 'response.content_part.done',
        item_id: draft.itemId,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', annotations: [], text },
      }),
    );
  } else {
    events.push(sequence.stamp({ type: 'response.custom_tool_call_input.done', item_id: draft.itemId, output_index: 0, input: text }));
  }
  events.push(
    sequence.stamp({ type: 'response.output_item.done', output_index: 0, item: done }),
    sequence.stamp({ type: 'response.completed', response: responseObject(draft, 'completed', [done], usageObject(usage)) }),
  );
  return events;
}

/** `generate: false`: state prepared, no output. */
export function prewarmEvents(draft: ResponseDraft, sequence: EventSequence, inputTokens: number): ServerEvent[] {
  return [
    sequence.stamp({ type: 'response.created', response: responseObject(draft, 'in_progress', [], null) }),
    sequence.stamp({
      type: 'response.completed',
      response: responseObject(draft, 'completed', [], usageObject({ inputTokens, outputTokens: 0 })),
    }),
  ];
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

function usageObject(usage: Usage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** The in-band error frame of WebSocket mode. */
export function errorEvent(status: number, code: string, message: string, extra: Record<string, unknown> = {}): ServerEvent {
  const { param = null, headers, type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error' } = extra as {
    param?: string | null;
    headers?: Record<string, string>;
    type?: string;
  };
  return { type: 'error', status, error: { type, code, message, param, ...(headers ? { headers } : {}) } };
}
