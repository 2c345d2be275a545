import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../logger';
import { KEY_HIDDEN } from './key-redactor';
import { libraryLogger, redactingLogger } from './redacting-logger';

const KEY = 'sk-log-3Jd9Kq2Wm8';

describe('redactingLogger', () => {
  it('hides the key in messages and in errors (message and stack)', () => {
    const lines = createMemoryLogger();
    const logger = redactingLogger(lines, KEY);
    logger.info(`info ${KEY}`);
    logger.warn(`warn ${KEY}`, new Error(`boom ${KEY}`));
    logger.error('error', `a string ${KEY}`);
    logger.error('no error');
    expect(lines.lines.join('\n')).not.toContain(KEY);
    expect(lines.lines[0]).toBe(`info: info ${KEY_HIDDEN}`);
    expect(lines.lines[1]).toMatch(new RegExp(`^warning: warn \\[key hidden\\]: Error: boom \\[key hidden\\]\\n    at `));
    expect(lines.lines[2]).toBe(`error: error: a string ${KEY_HIDDEN}`);
    expect(lines.lines[3]).toBe('error: no error');
  });
});

describe('libraryLogger', () => {
  it('formats console-style calls into one line each, through the given logger', () => {
    const lines = createMemoryLogger();
    const logger = libraryLogger(redactingLogger(lines, KEY), 'openai');
    logger.error('Could not parse message into JSON:', `{"k":"${KEY}"}`);
    logger.debug('response %d', 200, { body: KEY });
    expect(lines.lines).toEqual([`error: openai: Could not parse message into JSON: {"k":"${KEY_HIDDEN}"}`, `info: openai: response 200 { body: '${KEY_HIDDEN}' }`]);
  });
});
