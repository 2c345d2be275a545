/**
 * The simulator's script file: which answer (or fault) each request gets.
 *
 * ```json
 * {
 *   "defaultAnswer": "Hello from the simulator.",
 *   "rules": [
 *     { "match": { "inputIncludes": "rename" }, "answer": { "toolInput": "*** Begin Patch\n…", "toolName": "apply_patch" } },
 *     { "match": { "model": "gpt-5.3-codex" }, "answer": { "text": "A deeper answer." }, "ttftMs": 400 },
 *     { "match": { "inputIncludes": "boom" }, "fault": "drop-mid-stream" }
 *   ]
 * }
 * ```
 * Rules are tried in order; the first whose every `match` field holds wins.
 * `inputIncludes` searches the request's input (and instructions / messages) as JSON text.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** Every fault the simulator can inject. */
export const FAULTS = [
  /** Close the connection halfway through the answer. */
  'drop-mid-stream',
  /** Close the connection after response.created, before any output. */
  'drop-before-output',
  /** Send the first delta, then nothing (connection stays open). */
  'stall',
  /** Refuse with 401 (at the WebSocket upgrade, or as the HTTP status). */
  'unauthorized',
  /** Refuse with 429 and `retry-after`. */
  'rate-limited',
  /** Fail with 500. */
  'server-error',
  /** Send a frame that is not JSON mid-stream. */
  'malformed-frame',
  /** Send an event type no client knows, then answer normally. */
  'unknown-event',
  /** Close as the server does at its 60-minute connection limit. */
  'connection-age-limit',
  /** Answer `previous_response_not_found` whatever the request. */
  'previous-response-not-found',
  /** Send one frame far larger than any real event (tests the client's size limit). */
  'oversized-frame',
  /** Accept the TCP connection, never answer the WebSocket upgrade. */
  'no-upgrade-response',
] as const;

export type Fault = (typeof FAULTS)[number];

const AnswerSchema = z
  .object({
    /** Plain text output (`response.output_text.delta` / chat `delta.content`). */
    text: z.string().optional(),
    /** Free-form custom tool input (`response.custom_tool_call_input.delta`). */
    toolInput: z.string().optional(),
    toolName: z.string().default('apply_patch'),
  })
  .strict();

const RuleSchema = z
  .object({
    match: z.object({ inputIncludes: z.string().optional(), model: z.string().optional() }).strict().default({}),
    answer: AnswerSchema.optional(),
    fault: z.enum(FAULTS).optional(),
    ttftMs: z.number().nonnegative().optional(),
    tokensPerSecond: z.number().positive().optional(),
    /** Send the answer up to (the token that completes) this text, then hold the rest until the test calls `release()`. */
    holdAfter: z.string().optional(),
    /** The rule applies to this many requests, then the next rule (or the default) answers: a fault that a retry gets past. */
    times: z.number().int().positive().optional(),
  })
  .strict();

export const SimScriptSchema = z
  .object({
    defaultAnswer: z.string().default('This is the Flint simulator. Ask me something.'),
    rules: z.array(RuleSchema).default([]),
  })
  .strict();

export type SimScript = z.infer<typeof SimScriptSchema>;
export type SimRule = z.infer<typeof RuleSchema>;
export type SimAnswer = z.infer<typeof AnswerSchema>;

export async function loadSimScript(path: string): Promise<SimScript> {
  const parsed = SimScriptSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) throw new Error(`Invalid simulator script ${path}: ${parsed.error.message}`);
  return parsed.data;
}

/** The first rule matching a request, if any. */
export function findRule(script: SimScript, request: { model?: unknown }, requestText: string, used: Map<SimRule, number> = new Map()): SimRule | undefined {
  const rule = script.rules.find(
    (candidate) =>
      (candidate.times === undefined || (used.get(candidate) ?? 0) < candidate.times) &&
      (candidate.match.model === undefined || candidate.match.model === request.model) &&
      (candidate.match.inputIncludes === undefined || requestText.includes(candidate.match.inputIncludes)),
  );
  if (rule) used.set(rule, (used.get(rule) ?? 0) + 1);
  return rule;
}

/**
 * Splits text into simulated tokens (about four characters, whitespace attached in front),
 * so "tokens per second" means roughly what it does for a real model.
 */
export function simulatedTokens(text: string): string[] {
  return text.match(/\s*[^\s]{1,4}|\s+/g) ?? [];
}
