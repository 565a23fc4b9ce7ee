import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { describe, expect, it } from 'vitest';
import { signRequest } from './sign-request';

const prepared: TemporaryTokenUploadResponse = {
  key: 'uploads/a b/ünï+(1).txt',
  bucket: 'bucket',
  region: 'eu-west-3',
  token: { Credentials: { AccessKeyId: 'ASIATEMP', SecretAccessKey: 'secret', SessionToken: 'session-token' } },
};
const url = 'https://bucket.s3.eu-west-3.amazonaws.com/uploads/a%20b/%C3%BCn%C3%AF%2B%281%29.txt';
const date = new Date('2026-11-23T07:00:00.123Z');

/** The parts of an `Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` header. */
const authorization = (value: string | undefined) =>
  /^AWS4-HMAC-SHA256 Credential=(?<credential>[^,]+), SignedHeaders=(?<signed>[^,]+), Signature=(?<signature>[\da-f]{64})$/.exec(
    value ?? '',
  )?.groups;

describe('signRequest (SigV4 in headers, UNSIGNED-PAYLOAD)', () => {
  it('signs a Content-MD5 header (the part checksum of `checksum: md5`)', async () => {
    const signed = await signRequest({ method: 'PUT', url, query: { partNumber: '1', uploadId: 'u' }, headers: { 'Content-MD5': 'XUFAKrxLKna5cZ2REBfFkg==' } }, prepared, date);
    expect(authorization(signed.headers.authorization)?.signed).toBe('content-md5;host;x-amz-content-sha256;x-amz-date;x-amz-security-token');
  });

  it('signs every header it sends, host included, and leaves host out of the headers to set', async () => {
    const signed = await signRequest(
      { method: 'PUT', url, headers: { 'content-type': 'text/plain', 'cache-control': 'max-age=630720000, public' } },
      prepared,
      date,
    );
    expect(signed.url).toBe(url);
    expect(Object.keys(signed.headers).sort()).toEqual([
      'authorization',
      'cache-control',
      'content-type',
      'x-amz-content-sha256',
      'x-amz-date',
      'x-amz-security-token',
    ]);
    expect(signed.headers).toMatchObject({
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
      'x-amz-date': '20261123T070000Z',
      'x-amz-security-token': 'session-token',
    });
    expect(authorization(signed.headers.authorization)).toMatchObject({
      credential: 'ASIATEMP/20261123/eu-west-3/s3/aws4_request',
      signed: 'cache-control;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token',
    });
  });

  it('writes the query as S3 reads it: a bare `uploads`, encoded values', async () => {
    const create = await signRequest({ method: 'POST', url, query: { uploads: '' } }, prepared, date);
    expect(create.url).toBe(`${url}?uploads`);
    const part = await signRequest({ method: 'PUT', url, query: { partNumber: '7', uploadId: '2~a+b/c=' } }, prepared, date);
    expect(part.url).toBe(`${url}?partNumber=7&uploadId=2~a%2Bb%2Fc%3D`);
  });

  it('depends on the date, the credentials and each signed header', async () => {
    const signature = async (input: Parameters<typeof signRequest>) =>
      authorization((await signRequest(...input)).headers.authorization)?.signature;
    const base = await signature([{ method: 'PUT', url, headers: { 'content-type': 'a/b' } }, prepared, date]);
    const others = await Promise.all([
      signature([{ method: 'PUT', url, headers: { 'content-type': 'a/c' } }, prepared, date]),
      signature([{ method: 'PUT', url, headers: { 'content-type': 'a/b' } }, prepared, new Date('2026-11-23T07:00:01Z')]),
      signature([
        { method: 'PUT', url, headers: { 'content-type': 'a/b' } },
        { ...prepared, token: { Credentials: { ...prepared.token.Credentials, SecretAccessKey: 'other' } } },
        date,
      ]),
    ]);
    expect(new Set([base, ...others]).size).toBe(4);
  });

  it('signs a path-style address with a port (host is `127.0.0.1:port`)', async () => {
    const signed = await signRequest({ method: 'DELETE', url: 'http://127.0.0.1:7480/bucket/key', query: { uploadId: 'u' } }, prepared, date);
    expect(signed.url).toBe('http://127.0.0.1:7480/bucket/key?uploadId=u');
    expect(signed.headers).not.toHaveProperty('host');
  });
});
