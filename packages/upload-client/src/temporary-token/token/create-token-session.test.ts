import { TOKEN_OBJECT_CACHE_CONTROL, type TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { describe, expect, it, vi } from 'vitest';
import { UploadClientError } from '../../errors';
import { createTokenSession, MAX_SIGNATURE_AGE_MS } from './create-token-session';
import type { StorageAnswer, StorageRequest, TokenSessionOptions } from './token-session';

// Behaviours that radosgw, the real storage of test/token-session-radosgw.test.ts, never shows (AWS's
// <ServerTime>, MinIO's NoSuchUpload after a lost Complete, a 200 holding an <Error>, ExpiredToken, a
// truncated ListParts): here storage is a stub that answers what those servers answer, named so.

const T0 = Date.parse('2026-11-23T07:00:00Z');
const HOUR = 3_600_000;

const prepared: TemporaryTokenUploadResponse = {
  key: 'uploads/file.bin',
  bucket: 'bucket',
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9000',
  forcePathStyle: true,
  ticket: 'ticket-1',
  contentDisposition: 'inline',
  metadata: { 'User-Id': '42' },
  token: {
    Credentials: { AccessKeyId: 'AK1', SecretAccessKey: 'secret', SessionToken: 'token-1', Expiration: new Date(T0 + HOUR).toISOString() },
  },
};

const answer = (status: number, body = '', headers = ''): StorageAnswer => ({ status, body, headers });
const error = (code: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code>${extra}</Error>`;
const noAnswer = () => new UploadClientError('NETWORK_ERROR', 'No answer from storage.');

/** A session whose storage is a stub answering each request with the next of `script` (an answer or a thrown error). */
function withStubStorage(script: (StorageAnswer | Error)[], options: Partial<TokenSessionOptions> = {}) {
  const requests: StorageRequest[] = [];
  const renewals: string[] = [];
  const session = createTokenSession({
    prepared,
    now: () => T0,
    renew: async (ticket) => {
      renewals.push(ticket);
      const Credentials = { ...prepared.token.Credentials, AccessKeyId: 'AK2', SessionToken: 'token-2' };
      return { ...prepared, ticket: 'ticket-2', token: { Credentials } };
    },
    retry: { maxAttempts: 3 },
    ...options,
    send: async (request) => {
      requests.push(request);
      const next = script.shift();
      if (next === undefined) throw new Error(`stub storage has no answer for ${request.method} ${request.url}`);
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { session, requests, renewals };
}

describe('createTokenSession: signed requests', () => {
  it('refuses to start without WebCrypto (an http page that is not localhost), before any request', () => {
    vi.stubGlobal('crypto', {});
    try {
      expect(() => withStubStorage([])).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/secure context/) }));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('PutObject carries the object headers, signed; the signature is used 5 minutes at most', async () => {
    const { session } = withStubStorage([]);
    expect(session.objectUrl).toBe('http://127.0.0.1:9000/bucket/uploads/file.bin');
    const signed = await session.signPutObject('image/png');
    expect(signed.url).toBe(session.objectUrl);
    expect(signed.headers).toMatchObject({
      'content-type': 'image/png',
      'cache-control': TOKEN_OBJECT_CACHE_CONTROL,
      'content-disposition': 'inline',
      'x-amz-meta-user-id': '42',
      'x-amz-security-token': 'token-1',
    });
    expect(signed.headers.authorization).toContain(
      'SignedHeaders=cache-control;content-disposition;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-meta-user-id;x-amz-security-token,',
    );
    expect(TOKEN_OBJECT_CACHE_CONTROL).toBe('max-age=630720000, public');
    expect(signed.expiresAt).toBe(T0 + MAX_SIGNATURE_AGE_MS);
  });

  it('UploadPart is addressed by part number and upload id; expiresAt stops at the credentials expiration', async () => {
    const { session } = withStubStorage([], { now: () => T0 + HOUR - 2 * 60_000, prepared: { ...prepared, ticket: undefined } });
    const signed = await session.signUploadPart('2~id', 3);
    expect(signed.url).toBe('http://127.0.0.1:9000/bucket/uploads/file.bin?partNumber=3&uploadId=2~id');
    expect(signed.headers).not.toHaveProperty('content-type');
    expect(signed.expiresAt).toBe(T0 + HOUR);
  });
});

describe('createTokenSession: requests it sends', () => {
  it('CreateMultipartUpload returns the UploadId; an answer without one is a STORAGE_ERROR', async () => {
    const created = '<InitiateMultipartUploadResult><UploadId>2~abc</UploadId></InitiateMultipartUploadResult>';
    const { session, requests } = withStubStorage([answer(200, created), answer(200, '<InitiateMultipartUploadResult/>')], {
      retry: { maxAttempts: 1 },
    });
    await expect(session.createMultipartUpload('text/plain')).resolves.toBe('2~abc');
    expect(requests[0]).toMatchObject({ method: 'POST', url: `${session.objectUrl}?uploads` });
    expect(requests[0]!.headers).toMatchObject({ 'content-type': 'text/plain', 'cache-control': TOKEN_OBJECT_CACHE_CONTROL });
    await expect(session.createMultipartUpload('text/plain')).rejects.toMatchObject({ code: 'STORAGE_ERROR', status: 200 });
  });

  it('a CompleteMultipartUpload answered 200 with an <Error> is a failure, retried when S3 says InternalError', async () => {
    const done = '<CompleteMultipartUploadResult><ETag>&quot;abc-2&quot;</ETag></CompleteMultipartUploadResult>';
    const { session, requests } = withStubStorage([answer(200, error('InternalError')), answer(200, done)]);
    const parts = [{ partNumber: 1, etag: '"a"' }, { partNumber: 2, etag: '"b"' }];
    await expect(session.completeMultipartUpload('2~id', parts)).resolves.toEqual({ etag: '"abc-2"', checksum: undefined });
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ method: 'POST', url: `${session.objectUrl}?uploadId=2~id`, headers: { 'content-type': 'application/xml' } });
    expect(requests[0]!.body).toContain('<Part><PartNumber>2</PartNumber><ETag>&quot;b&quot;</ETag></Part>');

    const failing = withStubStorage([answer(200, error('AccessDenied', '<Message>no</Message>'))]);
    await expect(failing.session.completeMultipartUpload('2~id', parts)).rejects.toMatchObject({
      code: 'STORAGE_ERROR',
      answerCode: 'AccessDenied',
      message: 'Storage refused the upload (200 AccessDenied): no',
    });
  });

  it('NoSuchUpload answering the retry of an unanswered CompleteMultipartUpload counts as done (MinIO)', async () => {
    const { session } = withStubStorage([noAnswer(), answer(404, error('NoSuchUpload'))]);
    await expect(session.completeMultipartUpload('2~id', [{ partNumber: 1, etag: '"a"' }])).resolves.toEqual({ etag: undefined, checksum: undefined });
    // Answered at first: NoSuchUpload is a failure.
    const answered = withStubStorage([answer(404, error('NoSuchUpload'))]);
    await expect(answered.session.completeMultipartUpload('2~id', [])).rejects.toMatchObject({ status: 404, answerCode: 'NoSuchUpload' });
  });

  it.each([
    ['crc32c', 'CRC32C', 'COMPOSITE'],
    ['crc64nvme', 'CRC64NVME', 'FULL_OBJECT'],
    ['sha256', 'SHA256', 'COMPOSITE'],
  ] as const)('a %s upload: CreateMultipartUpload names the algorithm and type, signed', async (algorithm, name, type) => {
    const created = '<InitiateMultipartUploadResult><UploadId>u</UploadId></InitiateMultipartUploadResult>';
    const { session, requests } = withStubStorage([answer(200, created)]);
    await session.createMultipartUpload('text/plain', undefined, algorithm);
    expect(requests[0]!.headers).toMatchObject({ 'x-amz-checksum-algorithm': name, 'x-amz-checksum-type': type });
    expect(requests[0]!.headers.authorization).toContain(';x-amz-checksum-algorithm;x-amz-checksum-type;');
  });

  it('an md5 upload (or none): CreateMultipartUpload names no algorithm (md5 parts carry Content-MD5)', async () => {
    const created = '<InitiateMultipartUploadResult><UploadId>u</UploadId></InitiateMultipartUploadResult>';
    const { session, requests } = withStubStorage([answer(200, created), answer(200, created)]);
    await session.createMultipartUpload('text/plain', undefined, 'md5');
    await session.createMultipartUpload('text/plain');
    for (const request of requests) expect(Object.keys(request.headers).filter((name) => name.startsWith('x-amz-checksum'))).toEqual([]);
  });

  it('CompleteMultipartUpload lists each part\'s checksum, sends the full-object CRC and If-None-Match (signed); reads storage\'s checksum', async () => {
    const done = '<CompleteMultipartUploadResult><ETag>"e-2"</ETag><ChecksumCRC64NVME>AAAAAAAAAAE=</ChecksumCRC64NVME><ChecksumType>FULL_OBJECT</ChecksumType></CompleteMultipartUploadResult>';
    const { session, requests } = withStubStorage([answer(200, done)]);
    const parts = [{ partNumber: 2, etag: '"b"', checksum: 'Ag==' }, { partNumber: 1, etag: '"a"', checksum: 'AQ==' }];
    const options = { checksum: 'crc64nvme', objectChecksum: 'AAAAAAAAAAE=', ifNoneMatch: true } as const;
    await expect(session.completeMultipartUpload('2~id', parts, undefined, options)).resolves.toEqual({ etag: '"e-2"', checksum: 'AAAAAAAAAAE=' });
    expect(requests[0]!.headers).toMatchObject({ 'x-amz-checksum-crc64nvme': 'AAAAAAAAAAE=', 'if-none-match': '*' });
    expect(requests[0]!.headers.authorization).toContain(';if-none-match;');
    expect(requests[0]!.headers.authorization).toContain(';x-amz-checksum-crc64nvme;');
    expect(requests[0]!.body).toContain(
      '<Part><PartNumber>1</PartNumber><ETag>&quot;a&quot;</ETag><ChecksumCRC64NVME>AQ==</ChecksumCRC64NVME></Part>' +
        '<Part><PartNumber>2</PartNumber><ETag>&quot;b&quot;</ETag><ChecksumCRC64NVME>Ag==</ChecksumCRC64NVME></Part>',
    );
    // A composite upload: the parts' checksums, no object header; storage's `-N` value read back.
    const composite = '<CompleteMultipartUploadResult><ETag>"e-2"</ETag><ChecksumSHA256>c2hh-2</ChecksumSHA256></CompleteMultipartUploadResult>';
    const second = withStubStorage([answer(200, composite)]);
    await expect(second.session.completeMultipartUpload('2~id', parts, undefined, { checksum: 'sha256' })).resolves.toEqual({ etag: '"e-2"', checksum: 'c2hh-2' });
    expect(second.requests[0]!.headers).not.toHaveProperty('if-none-match');
    expect(Object.keys(second.requests[0]!.headers).filter((name) => name.startsWith('x-amz-checksum'))).toEqual([]);
    expect(second.requests[0]!.body).toContain('<ChecksumSHA256>AQ==</ChecksumSHA256>');
  });

  it('If-None-Match: a 412 to the retry of an unanswered Complete counts as done; a 412 at first is the overwrite refusal', async () => {
    const refused = answer(412, error('PreconditionFailed', '<Message>At least one of the pre-conditions you specified did not hold</Message>'));
    const { session } = withStubStorage([noAnswer(), refused]);
    const parts = [{ partNumber: 1, etag: '"a"' }];
    await expect(session.completeMultipartUpload('2~id', parts, undefined, { ifNoneMatch: true })).resolves.toEqual({ etag: undefined, checksum: undefined });
    const answered = withStubStorage([refused]);
    await expect(answered.session.completeMultipartUpload('2~id', parts, undefined, { ifNoneMatch: true })).rejects.toMatchObject({
      code: 'STORAGE_ERROR',
      status: 412,
      answerCode: 'PreconditionFailed',
      message: 'An object already exists under this key (storage refuses to overwrite it).',
    });
  });

  it('ListParts reads every page; 403, 405 and 501 mean "cannot list"', async () => {
    const page = (parts: number[], next?: number) =>
      `<ListPartsResult><IsTruncated>${next !== undefined}</IsTruncated>${next ? `<NextPartNumberMarker>${next}</NextPartNumberMarker>` : ''}` +
      parts.map((n) => `<Part><PartNumber>${n}</PartNumber><ETag>"e${n}"</ETag><Size>${n * 10}</Size></Part>`).join('') +
      '</ListPartsResult>';
    const { session, requests } = withStubStorage([answer(200, page([1, 2], 2)), answer(200, page([3]))]);
    await expect(session.listParts('2~id')).resolves.toEqual([1, 2, 3].map((n) => ({ partNumber: n, etag: `"e${n}"`, size: n * 10 })));
    expect(requests.map((request) => request.url.slice(session.objectUrl.length))).toEqual([
      '?uploadId=2~id',
      '?uploadId=2~id&part-number-marker=2',
    ]);
    for (const status of [403, 405, 501]) {
      await expect(withStubStorage([answer(status, error('AccessDenied'))]).session.listParts('2~id')).resolves.toBeUndefined();
    }
  });

  it('AbortMultipartUpload: done on 204 and on NoSuchUpload, retried on 503', async () => {
    const { session, requests } = withStubStorage([answer(503, error('SlowDown')), answer(204), answer(404, error('NoSuchUpload'))]);
    await session.abortMultipartUpload('2~id');
    await session.abortMultipartUpload('2~id');
    expect(requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
    expect(requests[0]!.signal).toBeUndefined();
  });

  it('PutObjectTagging sends the tag set with its SHA-256 checksum', async () => {
    const { session, requests } = withStubStorage([answer(200)]);
    await session.putObjectTagging([{ Key: 'a', Value: 'b' }]);
    expect(requests[0]).toMatchObject({ method: 'PUT', url: `${session.objectUrl}?tagging` });
    const expected = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(requests[0]!.body))).toString('base64');
    expect(requests[0]!.headers['x-amz-checksum-sha256']).toBe(expected);
  });
});

describe('createTokenSession: what signing again cures', () => {
  it("RequestTimeTooSkewed with AWS's <ServerTime>: the clock is corrected and the request signed again at once", async () => {
    const skewed = error('RequestTimeTooSkewed', '<ServerTime>2026-11-23T07:20:00Z</ServerTime>');
    const created = '<InitiateMultipartUploadResult><UploadId>u</UploadId></InitiateMultipartUploadResult>';
    const { session, requests } = withStubStorage([answer(403, skewed), answer(200, created)], { retry: { maxAttempts: 1 } });
    await expect(session.createMultipartUpload('text/plain')).resolves.toBe('u');
    expect(requests.map((request) => request.headers['x-amz-date'])).toEqual(['20261123T070000Z', '20261123T072000Z']);
    expect((await session.signUploadPart('u', 1)).headers['x-amz-date']).toBe('20261123T072000Z');
  });

  it('RequestTimeTooSkewed with no readable time: the clock is set from a renewal', async () => {
    const { session, renewals } = withStubStorage([], {
      renew: async (ticket) => {
        renewals.push(ticket);
        return { ...prepared, serverTime: '2026-11-23T07:03:00Z' };
      },
    });
    expect(session.recoveryFor(answer(403, error('RequestTimeTooSkewed')))).toBe('correct-clock');
    expect((await session.signUploadPart('u', 1)).headers['x-amz-date']).toBe('20261123T070300Z');
    expect(renewals).toEqual(['ticket-1']);
  });

  it('ExpiredToken: the credentials are renewed and the request signed again', async () => {
    const { session, requests, renewals } = withStubStorage([answer(400, error('ExpiredToken')), answer(204)]);
    await session.abortMultipartUpload('u');
    expect(renewals).toEqual(['ticket-1']);
    expect(requests.map((request) => request.headers['x-amz-security-token'])).toEqual(['token-1', 'token-2']);
    expect(session.prepared.ticket).toBe('ticket-2');
  });

  it('other refusals are not for signing again', () => {
    const { session } = withStubStorage([]);
    expect(session.recoveryFor(answer(403, error('AccessDenied')))).toBeUndefined();
    expect(session.recoveryFor(answer(403, ''))).toBeUndefined();
    const noTicket = withStubStorage([], { prepared: { ...prepared, ticket: undefined } });
    expect(noTicket.session.recoveryFor(answer(400, error('ExpiredToken')))).toBeUndefined();
  });
});
