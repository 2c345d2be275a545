/**
 * Property: whatever the user does — save and edit providers, move base URLs, remove them,
 * damage settings.json, restart with other environment variables, store and delete keys,
 * allow a held-back key — every request carries only a key bound to the origin it goes to,
 * and a key crosses plain http to another machine only where the user allowed that origin.
 *
 * The oracle knows where each key was given (every key value is fresh, so it names its
 * source): a stored key for the origin it was stored at, FLINT_API_KEY for its run's
 * FLINT_BASE_URL, a preset's variable for the preset's shipped origin, plus what the user
 * allowed. It never asks the code under test which key was right.
 */
import { FlintFailure } from '../../shared/result';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyWire, type KeyWire } from '../../../test/helpers/key-wire';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import type { ProviderDraft } from '../../shared/inference-types';
import { BUILT_IN_PROVIDERS } from './provider-catalog';

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const URLS = ['https://api.openai.com/v1', 'https://api.cerebras.ai/v1', 'https://proxy-a.example/v1', 'http://gpu-box.lan:8000/v1', 'http://127.0.0.1:8787/v1', 'http://attacker.example/v1'];
/** FLINT_BASE_URL is not checked against the schema a provider in Settings is: a plain WebSocket too. */
const ENVIRONMENT_URLS = [...URLS, 'ws://gpu-box.lan:8000/v1', 'wss://proxy-a.example/v1'];

/** The oracle's own reading of an address, independent of the code under test. */
const origin = (url: string): string => new URL(url).origin;
/** Unencrypted to another machine (the loopback names these tests and the local presets use are the only exceptions). */
const crossesNetworkInClear = (at: string): boolean => /^(?:http|ws):/.test(at) && !['127.0.0.1', 'localhost'].includes(new URL(at).hostname);
const VARIABLES = ['OPENAI_API_KEY', 'CEREBRAS_API_KEY', 'CUSTOM_API_KEY', 'FLINT_API_KEY'];
const LABELS = ['My proxy', 'My proxy', 'Other'];

/** Where each key value may go, and which origins take keys unencrypted: the user's side of the story. */
class KeyOracle {
  private readonly allowedOrigins = new Map<string, Set<string>>();
  private readonly variableOf = new Map<string, string>();
  readonly variableConsents = new Map<string, Set<string>>();
  readonly cleartextConsents = new Set<string>();
  private fresh = 0;

  /** A new key value, bound to `origins`; `variable` when it sits in that environment variable. */
  key(origins: readonly string[], variable?: string): string {
    const key = `sk-${(this.fresh += 1)}-${variable ?? 'stored'}`;
    this.allowedOrigins.set(key, new Set(origins));
    if (variable) this.variableOf.set(key, variable);
    return key;
  }

  consent(reason: 'other-origin' | 'cleartext', at: string, variable: string | undefined): void {
    if (reason === 'cleartext') this.cleartextConsents.add(at);
    else if (variable) this.variableConsents.set(variable, new Set([...(this.variableConsents.get(variable) ?? []), at]));
  }

  /** settings.json was damaged and set aside: what the user allowed went with it. */
  forgetConsents(): void {
    this.variableConsents.clear();
    this.cleartextConsents.clear();
  }

  /** Why sending `key` to `origin` breaks the promise, or null when it may go there. */
  problem(at: string, key: string): string | null {
    const allowed = this.allowedOrigins.get(key);
    if (!allowed) return `${key} is no key the user gave`;
    const variable = this.variableOf.get(key);
    if (!allowed.has(at) && !(variable && this.variableConsents.get(variable)?.has(at))) return `${key} went to ${at}, not where it was given`;
    if (crossesNetworkInClear(at) && !this.cleartextConsents.has(at)) return `${key} went unencrypted to ${at} without consent`;
    return null;
  }
}

/** A new run's environment: maybe FLINT_*, maybe preset and custom variables, all with fresh keys. */
function environment(random: Random, oracle: KeyOracle): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  if (random() < 0.6) {
    const baseUrl = pick(random, ENVIRONMENT_URLS);
    env.FLINT_BASE_URL = baseUrl;
    env.FLINT_PROVIDER = pick(random, ['openai-responses', 'openai-chat']);
    if (random() < 0.7) env.FLINT_API_KEY = oracle.key([origin(baseUrl)], 'FLINT_API_KEY');
  }
  for (const variable of ['OPENAI_API_KEY', 'CEREBRAS_API_KEY', 'CUSTOM_API_KEY']) {
    if (random() < 0.5) env[variable] = oracle.key(BUILT_IN_PROVIDERS.filter((preset) => preset.keyVariable === variable).map((preset) => origin(preset.baseUrl)), variable);
  }
  return env;
}

async function step(random: Random, wire: KeyWire, oracle: KeyOracle, env: { current: NodeJS.ProcessEnv }): Promise<void> {
  const inference = wire.service;
  const providers = (await inference.listProviders()).providers;
  const provider = pick(random, providers);
  const editable = providers.filter((candidate) => candidate.origin !== 'environment');
  const roll = random();
  const draft = (base: ProviderDraft): ProviderDraft => ({ ...base, baseUrl: pick(random, URLS) });
  if (roll < 0.08) {
    env.current = environment(random, oracle);
    await wire.run(env.current);
  } else if (roll < 0.12) {
    await wire.damageSettings();
    oracle.forgetConsents();
    await wire.run(env.current);
  } else if (roll < 0.22) {
    const keyVariable = random() < 0.6 ? pick(random, VARIABLES) : undefined;
    // A name still taken is refused (names are unique); once its provider is gone (removed, or
    // the settings damaged and set aside) a provider of that name elsewhere starts without a key.
    await inference
      .saveProvider(null, { kind: 'openai-chat', label: pick(random, LABELS), baseUrl: pick(random, URLS), model: 'm', ...(keyVariable ? { keyVariable } : {}) })
      .catch((error: unknown) => {
        if (!(error instanceof FlintFailure) || !error.message.startsWith('There is already a provider named')) throw error;
      });
  } else if (roll < 0.34) {
    const target = pick(random, editable);
    const { id, keySource, keyFromVariable, keyOrigin, keyWithheld, origin: providerOrigin, ...base } = target;
    void [keySource, keyFromVariable, keyOrigin, keyWithheld, providerOrigin];
    await inference.saveProvider(id, draft(base));
  } else if (roll < 0.4) {
    await inference.removeProvider(pick(random, editable).id).catch(() => undefined);
  } else if (roll < 0.52) {
    await inference.setKey(provider.id, oracle.key([origin(provider.baseUrl)]));
  } else if (roll < 0.57) {
    await inference.deleteKey(provider.id);
  } else if (roll < 0.65) {
    const reason = provider.keyWithheld?.reason ?? pick(random, ['other-origin', 'cleartext'] as const);
    const allowed = await inference.allowKey(provider.id, reason, provider.keyOrigin).then(() => true, () => false);
    if (allowed) oracle.consent(reason, origin(provider.baseUrl), provider.keyFromVariable);
  } else if (roll < 0.8) {
    await inference.listModels(provider.id, { refresh: true });
  } else if (roll < 0.9) {
    await inference.testConnection(provider.id);
  } else {
    await inference.setActiveProvider(provider.id);
  }
}

describe('provider keys (property)', () => {
  let wire: KeyWire | undefined;
  afterEach(async () => {
    await wire?.dispose();
    wire = undefined;
  });

  it('sends every key only to the origin it was bound to, over any sequence of edits, resets and runs', { timeout: 600_000 }, async () => {
    const firstSeed = baseSeed(21_000);
    let keysSent = 0;
    for (let trial = 0; trial < trialCount(100, 3_000); trial += 1) {
      const seed = firstSeed + trial;
      const random = seededRandom(seed);
      const oracle = new KeyOracle();
      wire = await createKeyWire();
      const env = { current: environment(random, oracle) };
      await wire.run(env.current);
      for (let index = 0; index < 40; index += 1) {
        await step(random, wire, oracle, env);
        for (const sent of wire.sent.splice(0)) {
          if (sent.key === null) continue;
          keysSent += 1;
          expect(oracle.problem(sent.origin, sent.key), `FLINT_SEED=${seed}, step ${index}, via ${sent.via}`).toBeNull();
        }
      }
      await wire.dispose();
      wire = undefined;
    }
    // Not vacuous: keys did go out, where they were allowed to.
    expect(keysSent).toBeGreaterThan(20);
  });
});
