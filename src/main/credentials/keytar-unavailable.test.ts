import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../logger';
import { CredentialService } from './credential-service';
import { KeytarSecretStore } from './keytar-secret-store';
import { SecretStoreUnavailableError } from './secret-store';

describe('the keychain with no Secret Service', () => {
  beforeAll(() => {
    // A bus address where nothing listens, and no X display to autolaunch one: like a bare SSH session.
    // (vitest runs each file in its own process, so this reaches no other test.)
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/flint-test-bus';
    delete process.env.DISPLAY;
  });

  it('says the keychain is unavailable, points to environment variables, and stores nothing elsewhere', async () => {
    const store = new KeytarSecretStore(`Flint-test-${process.pid}`);
    const failure = await store.set('openai', 'sk-never-stored').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SecretStoreUnavailableError);
    expect((failure as Error).message).toContain('No OS keychain is available');
    expect((failure as Error).message).toContain('OPENAI_API_KEY');
    expect((failure as Error).message).not.toContain('sk-never-stored');
    await expect(store.get('openai')).rejects.toBeInstanceOf(SecretStoreUnavailableError);
  });

  it('refuses to store a key with the keychain-unavailable code, and still finds the key in the environment', async () => {
    const provider = { id: 'openai', kind: 'openai-responses', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'm', keyVariable: 'OPENAI_API_KEY' } as const;
    const credentials = new CredentialService(new KeytarSecretStore(`Flint-test-${process.pid}`), { OPENAI_API_KEY: 'sk-from-env' }, createMemoryLogger());
    await expect(credentials.set('openai', 'sk-never-stored')).rejects.toMatchObject({ code: 'keychain-unavailable', message: expect.stringContaining('No OS keychain is available') });
    await expect(credentials.delete('openai')).rejects.toMatchObject({ code: 'keychain-unavailable' });
    expect(await credentials.resolve(provider)).toEqual({ key: 'sk-from-env', source: 'environment', variable: 'OPENAI_API_KEY' });
    expect(credentials.keychainStatus).toMatchObject({ available: false, message: expect.stringContaining('No OS keychain is available') });
  });
});
