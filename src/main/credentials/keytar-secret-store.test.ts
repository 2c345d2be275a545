import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecretService, type SecretService } from '../../../test/helpers/secret-service';
import { KeytarSecretStore } from './keytar-secret-store';

describe('KeytarSecretStore against a real Secret Service (gnome-keyring)', () => {
  let service: SecretService;
  let store: KeytarSecretStore;

  beforeAll(async () => {
    service = await startSecretService();
    // libsecret connects lazily on first use, in this process only (vitest runs each file in its own).
    process.env.DBUS_SESSION_BUS_ADDRESS = service.busAddress;
    store = new KeytarSecretStore(`Flint-test-${process.pid}`);
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('has nothing for an account never set', async () => {
    expect(await store.get('openai')).toBeNull();
  });

  it('sets, replaces and deletes a key', async () => {
    await store.set('openai', 'sk-first');
    expect(await store.get('openai')).toBe('sk-first');
    await store.set('openai', 'sk-second');
    expect(await store.get('openai')).toBe('sk-second');
    expect(await store.delete('openai')).toBe(true);
    expect(await store.get('openai')).toBeNull();
    expect(await store.delete('openai')).toBe(false);
  });

  it('keeps a 4 KB key with unicode byte for byte', async () => {
    const key = `sk-ключ-🔑-${'é'.repeat(10)}-`.padEnd(4096, 'x');
    await store.set('cerebras', key);
    expect(await store.get('cerebras')).toBe(key);
    await store.delete('cerebras');
  });

  it('never mixes up two providers', async () => {
    await store.set('openai', 'sk-openai');
    await store.set('cerebras', 'csk-cerebras');
    expect(await store.get('openai')).toBe('sk-openai');
    expect(await store.get('cerebras')).toBe('csk-cerebras');
    await store.delete('openai');
    expect(await store.get('cerebras')).toBe('csk-cerebras');
    await store.delete('cerebras');
  });
});
