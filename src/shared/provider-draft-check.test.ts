import { describe, expect, it } from 'vitest';
import type { ProviderDraft } from './inference-types';
import { checkProviderDraft, problemList } from './provider-draft-check';

const GOOD: ProviderDraft = { kind: 'openai-chat', label: 'Lab GPU', baseUrl: 'http://10.0.0.5:8000/v1', model: 'qwen3-coder' };
const PROVIDERS = [
  { id: 'openai', label: 'OpenAI' },
  { id: 'lab-gpu', label: 'Lab GPU' },
];

describe('checkProviderDraft', () => {
  it('finds nothing wrong with a good draft, and lets an edit keep its own name', () => {
    expect(checkProviderDraft({ ...GOOD, label: 'Other' }, PROVIDERS, null)).toEqual({});
    expect(checkProviderDraft(GOOD, PROVIDERS, 'lab-gpu')).toEqual({});
  });

  it('names every invalid field at once, in the form’s order', () => {
    const problems = checkProviderDraft({ ...GOOD, label: ' openai ', baseUrl: 'ftp://x', model: '', keyVariable: 'GITHUB_TOKEN', contextWindow: Number.NaN }, PROVIDERS, null);
    expect(Object.keys(problems)).toEqual(['label', 'baseUrl', 'model', 'keyVariable', 'contextWindow']);
    expect(problems.label).toBe('There is already a provider named “OpenAI”: give this one another name.');
    expect(problemList(problems)).toHaveLength(5);
  });

  it('leaves the optional fields alone when they are empty', () => {
    expect(checkProviderDraft({ ...GOOD, label: 'New', deepModel: ' ', keyVariable: '' }, PROVIDERS, null)).toEqual({});
  });
});
