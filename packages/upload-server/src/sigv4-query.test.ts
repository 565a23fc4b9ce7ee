import { Sha256 } from '@smithy/core/checksum';
import { describe, expect, it } from 'vitest';
import { loadSha256 } from './sdk';
import { escapeUri, escapeUriPath } from './sigv4-query';

// sigv4-query.ts hashes with the runtime's built-in node:crypto where there is one, and with the SDK's
// portable Sha256 elsewhere (workers): both must give the same bytes. The URLs themselves are checked
// against getSignedUrl in presign.test.ts.
describe('sigv4-query hashes', () => {
  const bytes = new TextEncoder().encode('PUT\n/bucket/k%20y\nX-Amz-Date=20261124T000000Z\nhost:example\n\nhost\nUNSIGNED-PAYLOAD');

  it("uses node:crypto on Node, equal to the SDK's Sha256 (hash, and HMAC with a text or a byte key)", async () => {
    const Ours = await loadSha256();
    expect(Ours).not.toBe(Sha256);
    const digest = async (Hash: typeof Ours, key?: string | Uint8Array) => {
      const hash = new Hash(key);
      hash.update(bytes);
      return Buffer.from(await hash.digest()).toString('hex');
    };
    for (const key of [undefined, 'AWS4secret', new Uint8Array(32).fill(7)]) {
      expect(await digest(Ours, key)).toBe(await digest(Sha256, key));
    }
  });

  it("escapes as the SDK's escapeUri: encodeURIComponent, and !'()* too", () => {
    expect(escapeUri("a b!'()*/ü~")).toBe('a%20b%21%27%28%29%2A%2F%C3%BC~');
    expect(escapeUriPath("k/holiday (1)!.jpg")).toBe('k/holiday%20%281%29%21.jpg');
  });
});
