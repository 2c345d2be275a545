/**
 * The models a provider serves to this key: `GET {baseUrl}/models`, cached per provider.
 *
 * Catalogs change monthly and a preset's names go stale, so Settings offers what the
 * provider lists rather than what Flint was built with. When the list cannot be had
 * (offline, no such route, too slow) the configured names stand in, with the reason.
 * The key goes in the Authorization header and nowhere else: no reason quotes the
 * provider's words or an error's message, and every reason passes the key redactor anyway.
 */
import { createHash } from 'node:crypto';
import type { ModelListView } from '../../shared/inference-types';
import { redactAndCut } from './key-redactor';
import { trimEndCharacter } from '../../shared/trim-character';

/** How long a list may take; then the configured names stand in. */
export const MODEL_LIST_TIMEOUT_MS = 5_000;
/** The most names that go to the renderer at once; a filter narrows the rest in main. */
export const MODEL_LIST_LIMIT = 500;
/**
 * A list bigger than this is not a model list (OpenRouter's, with descriptions, is ~2 MB);
 * kept small because the body is parsed on main's thread (8 MB of JSON: tens of ms).
 */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** A failed fetch is not retried by merely reopening Settings for this long (Refresh does). */
const FAILURE_TTL_MS = 60_000;
/** Longer than any model id providers use; anything longer is not a name. */
const MAX_ID_LENGTH = 200;

/** Fetch as Node has it; tests inject a slow or failing one where the simulator cannot. */
export type FetchLike = typeof fetch;

export type ModelIdsResult = { ok: true; ids: string[] } | { ok: false; reason: string };

/**
 * Fetches and reads a provider's model list: sorted, deduplicated ids.
 *
 * Redirects are refused: following one would send the key to wherever it points.
 */
export async function fetchModelIds(baseUrl: string, apiKey: string | null, options: { timeoutMs?: number; fetch?: FetchLike } = {}): Promise<ModelIdsResult> {
  const timeoutMs = options.timeoutMs ?? MODEL_LIST_TIMEOUT_MS;
  if (apiKey !== null && !/^[\x21-\x7e]+$/.test(apiKey)) return { ok: false, reason: 'the key has characters that cannot be sent' };
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await (options.fetch ?? fetch)(`${trimEndCharacter(baseUrl, '/')}/models`, {
      headers: { Accept: 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
      redirect: 'error',
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, reason: reasonForStatus(response.status) };
    }
    const ids = readIds(JSON.parse(await readCapped(response)));
    return ids === null ? { ok: false, reason: 'the provider’s model list could not be read' } : { ok: true, ids };
  } catch (error) {
    return { ok: false, reason: redactAndCut(reasonForError(error, signal.aborted, timeoutMs), apiKey, 200) };
  }
}

function reasonForStatus(status: number): string {
  if (status === 404) return '404 — this provider does not list models';
  if (status === 401 || status === 403) return `the provider refused the key (${status})`;
  return `the provider answered ${status}`;
}

/** Network errors in words, from their codes only (an error's message may hold a URL or a header). */
function reasonForError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${Math.round(timeoutMs / 100) / 10} s`;
  if (error instanceof SyntaxError) return 'the provider’s model list is not JSON';
  if (error instanceof RangeError) return 'the provider’s model list is too large';
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  if (code === 'ECONNREFUSED') return 'offline — the connection was refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'offline — the host was not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection dropped';
  return 'offline — the provider could not be reached';
}

async function readCapped(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw new RangeError('too large');
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new RangeError('too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One collator for every comparison: `localeCompare` with options builds one per call (seconds for a long list). */
const ID_ORDER = new Intl.Collator('en', { numeric: true });

/** `{data: [{id}]}` (OpenAI and every compatible server), or `{models: [{name}]}` (Ollama's native shape). */
export function readIds(body: unknown): string[] | null {
  const entries = Array.isArray(body) ? body : isRecord(body) ? (Array.isArray(body.data) ? body.data : Array.isArray(body.models) ? body.models : null) : null;
  if (entries === null) return null;
  const ids = new Set<string>();
  for (const entry of entries) {
    const id = typeof entry === 'string' ? entry : isRecord(entry) ? (entry.id ?? entry.name) : undefined;
    if (typeof id === 'string' && id.trim() && id.length <= MAX_ID_LENGTH) ids.add(id.trim());
  }
  return [...ids].sort(ID_ORDER.compare);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the cache holds for a provider: the last good list, and the last failure since. */
interface CachedList {
  ids: string[] | null;
  fetchedAtEpochMs: number | null;
  failure: { reason: string; atEpochMs: number } | null;
}

/** The provider a list is asked for: what decides the list (address and key) and its fallbacks. */
export interface ModelListTarget {
  id: string;
  baseUrl: string;
  apiKey: string | null;
  /** The configured fast and deep models: what stands in without a list. */
  configured: string[];
}

/** Model lists per provider, kept in memory for the run; Refresh fetches again. */
export class ModelListCache {
  private readonly lists = new Map<string, CachedList>();
  private readonly inFlight = new Map<string, Promise<CachedList>>();

  constructor(private readonly options: { timeoutMs?: number; fetch?: FetchLike; now?: () => number } = {}) {}

  async list(target: ModelListTarget, request: { refresh?: boolean; filter?: string } = {}): Promise<ModelListView> {
    const slot = cacheSlot(target);
    let cached = this.lists.get(slot);
    if (request.refresh || !cached || (cached.ids === null && this.now() - (cached.failure?.atEpochMs ?? 0) > FAILURE_TTL_MS)) {
      cached = await this.fetch(slot, target, cached);
    }
    return viewOf(target, cached, request.filter ?? '');
  }

  /** Forgets a provider's lists (its address or key changed, or it was removed). */
  forget(providerId: string): void {
    for (const slot of this.lists.keys()) if (slot.startsWith(`${providerId}\u0000`)) this.lists.delete(slot);
  }

  private fetch(slot: string, target: ModelListTarget, previous: CachedList | undefined): Promise<CachedList> {
    const running = this.inFlight.get(slot);
    if (running) return running;
    const fetching = fetchModelIds(target.baseUrl, target.apiKey, this.options).then((result): CachedList => {
      const entry: CachedList = result.ok
        ? { ids: result.ids, fetchedAtEpochMs: this.now(), failure: null }
        : { ids: previous?.ids ?? null, fetchedAtEpochMs: previous?.fetchedAtEpochMs ?? null, failure: { reason: result.reason, atEpochMs: this.now() } };
      this.lists.set(slot, entry);
      return entry;
    });
    this.inFlight.set(slot, fetching);
    return fetching.finally(() => this.inFlight.delete(slot));
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** One cache slot per provider, address and key (a fingerprint: the key itself is not kept). */
function cacheSlot(target: ModelListTarget): string {
  const fingerprint = target.apiKey === null ? '' : createHash('sha256').update(target.apiKey).digest('hex').slice(0, 16);
  return `${target.id}\u0000${target.baseUrl}\u0000${fingerprint}`;
}

function viewOf(target: ModelListTarget, cached: CachedList, filter: string): ModelListView {
  const configured = [...new Set(target.configured)];
  const all = cached.ids ?? configured;
  const needle = filter.trim().toLowerCase();
  const matching = needle ? all.filter((id) => id.toLowerCase().includes(needle)) : all;
  const reason = cached.failure
    ? cached.ids === null
      ? `Showing the configured names: ${cached.failure.reason}.`
      : `Could not refresh (${cached.failure.reason}); this is the earlier list.`
    : undefined;
  return {
    providerId: target.id,
    models: matching.slice(0, MODEL_LIST_LIMIT),
    total: all.length,
    matching: matching.length,
    source: cached.ids === null ? 'configured' : 'provider',
    fetchedAtEpochMs: cached.fetchedAtEpochMs,
    unlisted: cached.ids === null ? [] : configured.filter((name) => !cached.ids!.includes(name)),
    ...(reason ? { reason } : {}),
  };
}
