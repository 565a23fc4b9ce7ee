import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { WebCryptoSha256 } from './sha256';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('WebCryptoSha256', () => {
  it('hashes what it was given (FIPS 180-2 vector "abc"), in pieces too', async () => {
    const hash = new WebCryptoSha256();
    hash.update('a');
    hash.update(new TextEncoder().encode('b'));
    hash.update(new Uint8Array([0x63]).buffer);
    expect(hex(await hash.digest())).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    hash.reset();
    expect(hex(await hash.digest())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('computes HMAC-SHA-256 with a secret (RFC 4231, test case 2)', async () => {
    const hmac = new WebCryptoSha256('Jefe');
    hmac.update('what do ya want for nothing?');
    expect(hex(await hmac.digest())).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('reads only its view of a shared buffer', async () => {
    const buffer = new TextEncoder().encode('xxabcxx');
    const hash = new WebCryptoSha256();
    hash.update(buffer.subarray(2, 5));
    expect(hex(await hash.digest())).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  // AWS S3 API reference, "Signature calculations for the Authorization header: transferring payload in a
  // single chunk", example GET Object: the SDK's signer over WebCrypto gives AWS's published signature.
  it("lets the SDK's SigV4 signer reproduce AWS's published GET Object example", async () => {
    const signer = new SignatureV4({
      service: 's3',
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      sha256: WebCryptoSha256,
      uriEscapePath: false,
    });
    const signed = await signer.sign(
      {
        method: 'GET',
        protocol: 'https:',
        hostname: 'examplebucket.s3.amazonaws.com',
        path: '/test.txt',
        query: {},
        headers: {
          host: 'examplebucket.s3.amazonaws.com',
          range: 'bytes=0-9',
          'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        },
      },
      { signingDate: new Date('2013-05-24T00:00:00Z') },
    );
    expect(signed.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});
