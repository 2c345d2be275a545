import { describe, expect, it } from 'vitest';
import { isLoopbackOrigin, isUnencrypted, originOf } from './provider-origin';

describe('provider origins', () => {
  it('binds a base URL to its scheme, host and port (the path is not part of it; a default port is left out)', () => {
    expect(originOf('https://api.openai.com/v1')).toBe('https://api.openai.com');
    expect(originOf('https://api.openai.com:443/v2/')).toBe('https://api.openai.com');
    expect(originOf('http://gpu-box.lan:8000/v1')).toBe('http://gpu-box.lan:8000');
    expect(originOf('HTTP://GPU-Box.LAN:80/v1')).toBe('http://gpu-box.lan');
  });

  it('calls plain http and plain WebSockets unencrypted, and only those', () => {
    expect(['http://gpu-box.lan:8000', 'ws://gpu-box.lan:8000'].map(isUnencrypted)).toEqual([true, true]);
    expect(['https://api.openai.com', 'wss://api.openai.com'].map(isUnencrypted)).toEqual([false, false]);
  });

  it('counts only this machine as loopback, never a name that merely starts like it', () => {
    for (const origin of ['http://localhost:11434', 'http://127.0.0.1:8787', 'http://127.8.9.10', 'http://[::1]:8080', 'ws://localhost:1234']) expect(isLoopbackOrigin(origin), origin).toBe(true);
    for (const origin of ['http://127.0.0.1.attacker.example', 'http://localhost.attacker.example', 'http://flint.localhost', 'http://0.0.0.0:80', 'http://192.168.1.2', 'http://[::ffff:8.8.8.8]', 'not a url']) expect(isLoopbackOrigin(origin), origin).toBe(false);
  });
});
