import { describe, expect, it } from 'vitest';
import { connectionDropped, failureFromStatus, PROVIDER_WORDS_MAX, quoteProvider } from './inference-failure';
import { KEY_HIDDEN } from './key-redactor';

const KEY = 'sk-proj-Zq81Xv5Rt3Wn7Ky0Lp2Hd4Fs6';

describe('failureFromStatus', () => {
  it('hides a key that straddles the 300-character cut, at every position', () => {
    for (let inside = 1; inside < KEY.length; inside += 1) {
      // `inside` characters of the key fall before the cut, the rest after it.
      const dots = '.'.repeat(PROVIDER_WORDS_MAX - inside);
      const failure = failureFromStatus({ status: 401, providerMessage: `${dots}${KEY} and more words after the key`, code: 'invalid_api_key', apiKey: KEY });
      expect(failure.code).toBe('unauthorized');
      // Hidden first, then cut: where the key began, the placeholder begins.
      const quoted = `${dots}${KEY_HIDDEN} and more words after the key`.slice(0, PROVIDER_WORDS_MAX);
      expect(failure.message, `${inside} characters before the cut`).toContain(`(${quoted})`);
      expect(failure.message).not.toContain(KEY.slice(0, Math.max(4, inside)));
    }
  });

  it('still shortens a long provider message (after hiding the key)', () => {
    const failure = failureFromStatus({ status: 500, providerMessage: `${KEY} ${'x'.repeat(5000)}`, apiKey: KEY });
    expect(failure.message.startsWith(`The provider had an error (500) (${KEY_HIDDEN} xxx`)).toBe(true);
    expect(failure.message.length).toBeLessThan(PROVIDER_WORDS_MAX + 60);
  });

  it('reads a terminal code that names an Object property (a hostile server) as no code', () => {
    for (const code of ['constructor', '__proto__', 'toString']) {
      const failure = failureFromStatus({ status: undefined, providerMessage: 'nope', code, apiKey: KEY });
      expect(failure.message, code).toBe('The provider refused the request (nope).');
    }
  });

  it('hides the key whatever the status maps to', () => {
    for (const status of [undefined, 400, 404, 401, 500]) {
      expect(failureFromStatus({ status, providerMessage: `you sent Bearer ${KEY}`, apiKey: KEY }).message).not.toContain(KEY);
    }
  });
});

describe('quoteProvider', () => {
  it('hides the key before cutting, so no part of it survives the cut', () => {
    const quoted = quoteProvider(`${'a'.repeat(PROVIDER_WORDS_MAX - 5)}${KEY}`, KEY);
    expect(quoted).toBe(`${'a'.repeat(PROVIDER_WORDS_MAX - 5)}${KEY_HIDDEN.slice(0, 5)}`);
  });

  it('hides a start of the key that the cut leaves at the end of the quote', () => {
    const dots = '.'.repeat(PROVIDER_WORDS_MAX - 20);
    // A start of the key, then other words: the cut keeps 20 characters of the key and drops the words.
    expect(quoteProvider(`${dots}${KEY.slice(0, 25)} is not your key`, KEY)).toBe(`${dots}${KEY_HIDDEN}`);
    expect(quoteProvider(`${dots}${KEY.slice(0, 25)} is not your key`, KEY)).not.toContain(KEY.slice(0, 8));
  });
});

describe('connectionDropped', () => {
  it('says in words how far the answer got, with no close codes or library jargon', () => {
    expect(connectionDropped('api.example.com', 'mid-answer', null).message).toBe('The connection to api.example.com dropped in the middle of the answer.');
    expect(connectionDropped('api.example.com', 'before-answer', null).message).toBe('The connection to api.example.com dropped before the answer began.');
    expect(connectionDropped('h', 'idle', KEY, `bye ${KEY}`).message).toBe(`The connection to h dropped (the provider said: bye ${KEY_HIDDEN}).`);
    expect(connectionDropped('h', 'idle', null).code).toBe('connection-lost');
  });
});

describe('a refusal of the model', () => {
  const unavailable = [
    { status: 404, code: 'model_not_found', providerMessage: 'The model `gpt-5.3-codex-spark` does not exist or you do not have access to it.' },
    { status: undefined, code: 'model_not_found', providerMessage: 'The model `gpt-5.3-codex-spark` does not exist or you do not have access to it.' },
    { status: 403, code: null, providerMessage: 'Project `proj_abc` does not have access to model `gpt-5.3-codex-spark`' },
    { status: 400, code: 'invalid_request_error', providerMessage: "The 'gpt-5.3-codex-spark' model is not supported when using Codex with an API key." },
    { status: 404, code: null, providerMessage: 'model "qwen3-coder" not found, try pulling it first' },
    { status: 404, code: null, providerMessage: 'No endpoints found for model openai/gpt-nope.' },
  ];

  it('is classified model-unavailable in the Responses and the Chat Completions shapes', () => {
    for (const refusal of unavailable) {
      expect(failureFromStatus({ ...refusal, apiKey: KEY }).code, refusal.providerMessage).toBe('model-unavailable');
    }
  });

  it('is not confused with a refused key, a bad address or a rate limit', () => {
    expect(failureFromStatus({ status: 403, providerMessage: 'Forbidden', apiKey: KEY }).code).toBe('unauthorized');
    expect(failureFromStatus({ status: 401, code: 'invalid_api_key', providerMessage: 'Incorrect API key provided.', apiKey: KEY }).code).toBe('unauthorized');
    expect(failureFromStatus({ status: 404, providerMessage: 'No route POST /v2/chat/completions', apiKey: KEY }).code).toBe('bad-configuration');
    expect(failureFromStatus({ status: 429, providerMessage: 'Rate limit for model gpt-oss-120b reached', apiKey: KEY }).code).toBe('rate-limited');
    expect(failureFromStatus({ status: 500, providerMessage: 'model not found in the router', apiKey: KEY }).code).toBe('server-error');
  });
});
