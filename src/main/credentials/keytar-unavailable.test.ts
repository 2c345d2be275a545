import { describe, expect, it } from 'vitest';
import { KeytarSecretStore } from './keytar-secret-store';
import { SecretStoreUnavailableError } from './secret-store';

describe('KeytarSecretStore with no Secret Service', () => {
  it('says the keychain is unavailable, points to environment variables, and stores nothing elsewhere', async () => {
    // A bus address where nothing listens, and no X display to autolaunch one: like a bare SSH session.
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/flint-test-bus';
    delete process.env.DISPLAY;
    const store = new KeytarSecretStore(`Flint-test-${process.pid}`);
    const failure = await store.set('openai', 'sk-never-stored').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SecretStoreUnavailableError);
    expect((failure as Error).message).toContain('No OS keychain is available');
    expect((failure as Error).message).toContain('OPENAI_API_KEY');
    expect((failure as Error).message).not.toContain('sk-never-stored');
    await expect(store.get('openai')).rejects.toBeInstanceOf(SecretStoreUnavailableError);
  });
});
