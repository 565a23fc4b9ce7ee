import { Sha256 } from '@smithy/core/checksum';
import { describe, expect, it } from 'vitest';
import { loadSigningHashes } from './sdk';
import { escapeUri, escapeUriPath } from './sigv4-query';

// sigv4-query.ts hashes with the runtime's built-in node:crypto where there is one, and with the SDK's
// portable Sha256 elsewhere (workers): both must give the same bytes. The URLs themselves are checked
// against getSignedUrl in presign.test.ts.
describe('sigv4-query hashes', () => {
  const text = 'PUT\n/bucket/k%20y\nX-Amz-Date=20261124T000000Z\nhost:example\n\nhost\nUNSIGNED-PAYLOAD ü';
  const sdkHex = async (key?: string | Uint8Array) => {
    const hash = new Sha256(key);
    hash.update(new TextEncoder().encode(text));
    return Buffer.from(await hash.digest()).toString('hex');
  };

  it("uses node:crypto on Node, equal to the SDK's Sha256 (hash, and HMAC with a text or a byte key)", async () => {
    const ours = await loadSigningHashes();
    // node:crypto answers at once: a value, not a promise.
    expect(typeof ours.sha256Hex(text)).toBe('string');
    expect(ours.sha256Hex(text)).toBe(await sdkHex());
    for (const key of ['AWS4secret', new Uint8Array(32).fill(7)]) {
      expect(Buffer.from(await ours.hmac(key, text)).toString('hex')).toBe(await sdkHex(key));
    }
    expect(await ours.hmacHex(new Uint8Array(32).fill(7), text)).toBe(await sdkHex(new Uint8Array(32).fill(7)));
  });

  it("escapes as the SDK's escapeUri: encodeURIComponent, and !'()* too", () => {
    expect(escapeUri("a b!'()*/ü~")).toBe('a%20b%21%27%28%29%2A%2F%C3%BC~');
    expect(escapeUriPath("k/holiday (1)!.jpg")).toBe('k/holiday%20%281%29%21.jpg');
  });
});
