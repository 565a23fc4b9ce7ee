import { describe, expect, it } from 'vitest';
import { createReceipts, RECEIPT_TTL_SECONDS } from './upload-receipt';

describe('upload receipts', () => {
  it('verifies a receipt for its key only', async () => {
    const receipts = createReceipts('server-secret');
    const receipt = await receipts.issue('uploads/a.bin');
    await expect(receipts.verify('uploads/a.bin', receipt)).resolves.toBeUndefined();
    await expect(receipts.verify('uploads/b.bin', receipt)).rejects.toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
  });

  it.each(['', 'x', '123.', '.abc', 'NaN.abc', '99999999999.AAAA'])('refuses a forged receipt %j', async (forged) => {
    await expect(createReceipts('s').verify('k', forged)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('refuses a receipt signed with another secret, or one that has expired', async () => {
    const receipt = await createReceipts('other-secret').issue('k');
    await expect(createReceipts('server-secret').verify('k', receipt)).rejects.toThrow('not valid');
    let now = Date.now();
    const clock = createReceipts('s', () => now);
    const old = await clock.issue('k');
    now += (RECEIPT_TTL_SECONDS + 1) * 1000;
    await expect(clock.verify('k', old)).rejects.toThrow('expired');
  });
});
