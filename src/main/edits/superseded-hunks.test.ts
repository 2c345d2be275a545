import { describe, expect, it } from 'vitest';
import { INVOICES, INVOICES_AFTER_REDUCE, SKIP_CANCELLED, USE_REDUCE } from '../../../test/fixtures/conversation-answers';
import { boardOnDisk } from '../../../test/helpers/board-on-disk';

const [SKIP, REDUCE, AFTER_REDUCE] = [SKIP_CANCELLED, USE_REDUCE, INVOICES_AFTER_REDUCE];

describe('hunks a redirect superseded', () => {
  it('are left out of Accept all, which writes only the replacement', async () => {
    const flint = await boardOnDisk({ 'src/invoices.ts': INVOICES });
    try {
      await flint.stream(SKIP, 7, 1);
      expect(flint.board.supersede(new Set([1]))).toBe(1);
      await flint.stream(REDUCE, 7, 2);
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', superseded: true, overlapsNewer: expect.stringContaining('Hunk 2 (from the redirect) changes the same lines') });
      expect(flint.board.counts()).toEqual({ pending: 1, superseded: 1 });
      expect(await flint.board.acceptAll()).toBe(1);
      expect(await flint.read('src/invoices.ts')).toBe(AFTER_REDUCE);
      expect(flint.hunks.get('2.0')?.state).toBe('accepted');
    } finally {
      await flint.close();
    }
  });

  it('can each be accepted on its own, and stay accepted; a later redirect does not take accepted hunks back', async () => {
    const flint = await boardOnDisk({ 'src/invoices.ts': INVOICES });
    try {
      await flint.stream(SKIP, 7, 1);
      flint.board.supersede(new Set([1]));
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('src/invoices.ts')).toContain("if (invoice.status !== 'cancelled')");
      expect(flint.board.supersede(new Set([1, 2]))).toBe(0);
      expect(flint.hunks.get('1.0')?.state).toBe('accepted');
    } finally {
      await flint.close();
    }
  });

  it('say that Flint’s own write of the replacement took their lines, never that the user’s text was kept', async () => {
    const flint = await boardOnDisk({ 'src/invoices.ts': INVOICES });
    try {
      await flint.stream(SKIP, 7, 1);
      flint.board.supersede(new Set([1]));
      await flint.stream(REDUCE, 7, 2);
      await flint.board.accept('2.0');
      const superseded = flint.hunks.get('1.0')!;
      expect(superseded.overlapsNewer).toContain('was accepted and changed the same lines');
      await expect(flint.board.accept('1.0')).resolves.not.toBe('accepted');
      expect(await flint.read('src/invoices.ts')).toBe(AFTER_REDUCE);
      expect(flint.hunks.get('1.0')?.message ?? '').not.toContain('your text');
    } finally {
      await flint.close();
    }
  });
});
