/**
 * Runtime schemas for every request's input: main checks each one before a handler runs.
 *
 * Kept apart from contract.ts so the renderer and the preload never bundle zod.
 * The `satisfies` clause ties each schema to the contract's declared input type:
 * a request without a schema, or a schema that drifts, fails to typecheck.
 */
import { z } from 'zod';
import type { RequestInput, RequestName } from './contract';
import { ExcludePatterns } from './exclude-patterns';

/** A project-relative path as the renderer sends it; main re-checks it against the root. */
const RelativePath = z.string().min(1).max(4096);
/** An absolute folder path typed or picked by the user. */
const FolderPath = z.string().min(1).max(4096);
const NoInput = z.object({}).strict();
const PathInput = z.object({ path: RelativePath }).strict();
const ProviderId = z.string().min(1).max(64);
const ProviderInput = z.object({ providerId: ProviderId }).strict();
const SessionId = z.string().uuid();
/** Shapes and sizes only: main's provider schema judges the values and words its refusals. */
const ProviderDraftInput = z
  .object({
    kind: z.enum(['openai-responses', 'openai-chat']),
    label: z.string().max(200),
    baseUrl: z.string().max(2048),
    model: z.string().max(400),
    deepModel: z.string().max(400).optional(),
    keyVariable: z.string().max(200).optional(),
    keyOptional: z.boolean().optional(),
    contextWindow: z.number().finite().optional(),
  })
  .strict();
const ModelName = z.string().max(400);
const HunkId = z.string().min(1).max(64);
/** A hunk as the user revised it before accepting: some of its lines, or its new text edited. */
const HunkRevision = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lines'), indices: z.array(z.number().int().min(0).max(1_000_000)).min(1).max(100_000) }).strict(),
  z.object({ kind: z.literal('edited'), newLines: z.array(z.string().max(1_000_000)).max(100_000) }).strict(),
]);
const AskFocus = z.enum(['recent-change', 'selection', 'whole-file']);
/** Lines of a file (1-based, inclusive); main checks them against the file itself. */
const LineRange = z
  .object({ startLine: z.number().int().min(1).max(100_000_000), endLine: z.number().int().min(1).max(100_000_000) })
  .strict()
  .refine((range) => range.startLine <= range.endLine, 'startLine must not be after endLine');
const AskSubject = z.enum(['file', 'project']);
/** A draft's `@path` mentions as typed (main parses and resolves them again). */
const Mentions = z.array(z.string().min(1).max(4096)).max(50);
const Depth = z.enum(['fast', 'deep']);
// Long pastes (logs, stack traces) are fine; the context budget decides what fits.
const Prompt = z.string().min(1).max(400_000);

export const requestSchemas = {
  getAppInfo: NoInput,
  getAppState: NoInput,
  openProject: z.object({ path: FolderPath }).strict(),
  chooseProjectFolder: NoInput,
  closeProject: NoInput,
  openProjectAnyway: z.object({ projectId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }).strict(),
  listDirectory: PathInput,
  findFiles: z.object({ query: z.string().min(1).max(4096), showIgnored: z.boolean(), limit: z.number().int().min(1).max(5000) }).strict(),
  suggestFiles: z.object({ query: z.string().max(4096) }).strict(),
  readFile: PathInput,
  selectFile: PathInput,
  switchCurrentFile: NoInput,
  removeRecent: z.object({ path: FolderPath }).strict(),
  updateSettings: z.object({ showIgnored: z.boolean().optional(), shortcut: z.string().min(1).max(64).optional(), clipboardSelection: z.boolean().optional(), exclude: ExcludePatterns.optional() }).strict(),
  getProviders: NoInput,
  setActiveProvider: ProviderInput,
  testConnection: ProviderInput,
  setApiKey: z.object({ providerId: ProviderId, key: z.string().min(1).max(8192) }).strict(),
  deleteApiKey: ProviderInput,
  allowProviderKey: z.object({ providerId: ProviderId, reason: z.enum(['other-origin', 'cleartext']), origin: z.string().min(1).max(2048) }).strict(),
  saveProvider: z.object({ providerId: ProviderId.optional(), draft: ProviderDraftInput }).strict(),
  removeProvider: ProviderInput,
  setProviderModel: z.object({ providerId: ProviderId, slot: Depth, model: ModelName }).strict(),
  listModels: z.object({ providerId: ProviderId, refresh: z.boolean().optional(), filter: z.string().max(200).optional() }).strict(),
  prepareAsk: z.object({ focus: AskFocus, subject: AskSubject.optional(), mentions: Mentions.optional() }).strict(),
  askModel: z
    .object({
      prompt: Prompt,
      paths: z.array(RelativePath).max(20).optional(),
      focus: AskFocus.optional(),
      selection: LineRange.optional(),
      subject: AskSubject.optional(),
      depth: Depth,
      keypressEpochMs: z.number().finite().optional(),
      conversationId: SessionId.optional(),
    })
    .strict(),
  acceptHunk: z.object({ sessionId: SessionId, hunkId: HunkId, revision: HunkRevision.optional() }).strict(),
  revertHunk: z.object({ sessionId: SessionId, hunkId: HunkId }).strict(),
  rejectHunk: z.object({ sessionId: SessionId, hunkId: HunkId }).strict(),
  restoreHunk: z.object({ sessionId: SessionId, hunkId: HunkId }).strict(),
  acceptAllHunks: z
    .object({ sessionId: SessionId, revisions: z.record(HunkId, HunkRevision).refine((revisions) => Object.keys(revisions).length <= 10_000, 'Too many revisions.').optional() })
    .strict(),
  rejectAllHunks: z.object({ sessionId: SessionId }).strict(),
  stopAnswer: z.object({ sessionId: SessionId }).strict(),
  acknowledgeAnswer: z.object({ sessionId: SessionId }).strict(),
  redirectAnswer: z.object({ sessionId: SessionId, prompt: Prompt, keypressEpochMs: z.number().finite().optional(), depth: Depth.optional() }).strict(),
  queueAnswer: z.object({ sessionId: SessionId, prompt: Prompt, depth: Depth.optional() }).strict(),
  retryTurn: z.object({ sessionId: SessionId, turn: z.number().int().positive().max(100_000), depth: Depth }).strict(),
  cancelRetry: z.object({ sessionId: SessionId }).strict(),
  listConversations: NoInput,
  getConversation: z.object({ sessionId: SessionId }).strict(),
  undoDecision: NoInput,
  redoDecision: NoInput,
} satisfies { [N in RequestName]: z.ZodType<RequestInput<N>> };
