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

  it('refuses to store a key with the keychain-unavailable code, reads none, and says why', async () => {
    const credentials = new CredentialService(new KeytarSecretStore(`Flint-test-${process.pid}`), createMemoryLogger());
    const address = { providerId: 'openai', origin: 'https://api.openai.com' };
    await expect(credentials.set(address, 'sk-never-stored')).rejects.toMatchObject({ code: 'keychain-unavailable', message: expect.stringContaining('No OS keychain is available') });
    await expect(credentials.delete(address)).rejects.toMatchObject({ code: 'keychain-unavailable' });
    expect(await credentials.stored(address)).toBeNull();
    expect(credentials.keychainStatus).toMatchObject({ available: false, message: expect.stringContaining('No OS keychain is available') });
  });
});
