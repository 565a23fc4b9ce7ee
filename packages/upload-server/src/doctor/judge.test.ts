import { describe, expect, it } from 'vitest';
import { checkClock } from './clock';
import { judgeCors, originMatches } from './cors';
import type { CheckContext } from './finding';
import { formatFindings } from './format';
import { judgeLifecycle } from './lifecycle';

const ORIGIN = 'https://app.example.com';
const good = { AllowedOrigins: [ORIGIN], AllowedMethods: ['PUT', 'POST', 'DELETE'], AllowedHeaders: ['*'], ExposeHeaders: ['ETag', 'Retry-After'] };

describe('judgeCors', () => {
  it('matches origins as S3 does: exact, *, one wildcard', () => {
    expect(originMatches('*', ORIGIN)).toBe(true);
    expect(originMatches('https://*.example.com', ORIGIN)).toBe(true);
    expect(originMatches('https://*.example.org', ORIGIN)).toBe(false);
    expect(originMatches('http://app.example.com', ORIGIN)).toBe(false);
  });

  it('passes a rule with the methods and exposed headers', () => {
    expect(judgeCors([good], ORIGIN, 'b').status).toBe('ok');
  });

  it('fails without ExposeHeader ETag and gives the completed rule, other rules kept', () => {
    const other = { AllowedOrigins: ['https://other.example'], AllowedMethods: ['GET'] };
    const finding = judgeCors([{ ...good, ExposeHeaders: ['x-amz-request-id'] }, other], ORIGIN, 'b');
    expect(finding.status).toBe('fail');
    expect(finding.message).toContain('ExposeHeaders lacks ETag');
    expect(finding.fix?.json).toEqual({
      CORSRules: [{ ...good, AllowedMethods: ['PUT', 'POST', 'DELETE', 'GET', 'HEAD'], ExposeHeaders: ['x-amz-request-id', 'ETag', 'Retry-After'], MaxAgeSeconds: 3000 }, other],
    });
  });

  it('fails without a rule for the origin, warns for Retry-After alone', () => {
    expect(judgeCors([], ORIGIN, 'b')).toMatchObject({ status: 'fail', message: expect.stringContaining(`no CORS rule allows PUT from ${ORIGIN}`) });
    expect(judgeCors([{ ...good, ExposeHeaders: ['etag'] }], ORIGIN, 'b').status).toBe('warn');
  });

  it('fails AllowedHeaders without Content-MD5 (or *) when the checksum setting is on; only warns when off', () => {
    const narrow = { ...good, AllowedHeaders: ['Content-Type', 'Cache-Control', 'x-amz-acl'] };
    const on = judgeCors([narrow], ORIGIN, 'b', { checksum: 'md5' });
    expect(on).toMatchObject({ status: 'fail', message: expect.stringContaining('AllowedHeaders lacks Content-MD5') });
    expect(judgeCors([{ ...narrow, AllowedHeaders: [...narrow.AllowedHeaders, 'content-md5'] }], ORIGIN, 'b', { checksum: 'md5' }).status).toBe('warn');
    expect(judgeCors([narrow], ORIGIN, 'b').status).toBe('warn');
    expect(judgeCors([good], ORIGIN, 'b', { checksum: 'md5' }).status).toBe('ok');
  });

  it('fails AllowedHeaders without the x-amz-checksum-* header or If-None-Match (or *) when those are on', () => {
    const narrow = { ...good, AllowedHeaders: ['Content-Type', 'Cache-Control', 'x-amz-acl'] };
    const needs = { checksum: 'crc64nvme', conditionalWrites: true } as const;
    const on = judgeCors([narrow], ORIGIN, 'b', needs);
    expect(on.status).toBe('fail');
    expect(on.message).toContain('AllowedHeaders lacks x-amz-checksum-crc64nvme');
    expect(on.message).toContain('AllowedHeaders lacks If-None-Match');
    const allowed = { ...narrow, AllowedHeaders: [...narrow.AllowedHeaders, 'X-Amz-Checksum-Crc64nvme', 'if-none-match'] };
    expect(judgeCors([allowed], ORIGIN, 'b', needs).status).toBe('warn');
    expect(judgeCors([good], ORIGIN, 'b', needs).status).toBe('ok');
  });

  it('fails a rule without DELETE (a cancelled multipart upload could not abort)', () => {
    expect(judgeCors([{ ...good, AllowedMethods: ['PUT', 'POST'] }], ORIGIN, 'b').message).toContain('AllowedMethods lacks DELETE');
  });
});

describe('judgeLifecycle', () => {
  const abort = { ID: 'a', Status: 'Enabled' as const, Filter: { Prefix: '' }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 } };

  it('passes an enabled rule whose prefix covers the key prefix', () => {
    expect(judgeLifecycle([abort], 'uploads/', 'b').status).toBe('ok');
    expect(judgeLifecycle([{ ...abort, Filter: { Prefix: 'other/' } }], 'uploads/', 'b').status).toBe('warn');
    expect(judgeLifecycle([{ ...abort, Status: 'Disabled' }], 'uploads/', 'b').status).toBe('warn');
  });

  it('suggests the existing rules plus an abort rule for the key prefix', () => {
    const expire = { ID: 'e', Status: 'Enabled' as const, Filter: { Prefix: 'tmp/' }, Expiration: { Days: 1 } };
    expect(judgeLifecycle([expire], 'uploads/', 'b').fix?.json).toEqual({
      Rules: [expire, { ID: 'upbeam-abort-incomplete-multipart-uploads', Status: 'Enabled', Filter: { Prefix: 'uploads/' }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }],
    });
  });
});

describe('checkClock', () => {
  const context = (date: string | undefined) => ({ lastHeaders: () => (date === undefined ? {} : { date }) }) as unknown as CheckContext;
  const now = Date.parse('Mon, 23 Nov 2026 08:00:00 GMT');

  it('fails beyond 5 minutes either way, passes within', () => {
    expect(checkClock(context('Mon, 23 Nov 2026 07:54:00 GMT'), now)).toMatchObject({ status: 'fail', message: expect.stringContaining('360 s ahead of') });
    expect(checkClock(context('Mon, 23 Nov 2026 08:04:00 GMT'), now).status).toBe('ok');
    expect(checkClock(context(undefined), now).status).toBe('skipped');
  });
});

describe('formatFindings', () => {
  it('prints one line per finding, the fix indented, and a count', () => {
    const text = formatFindings([
      { check: 'bucket', status: 'ok', message: 'fine.' },
      { check: 'cors', status: 'fail', message: 'no ETag.', fix: { apply: 'put it', json: { a: 1 } } },
    ]);
    expect(text).toBe(['[ok  ] bucket: fine.', '[FAIL] cors: no ETag.', '       fix: put it', '       {', '         "a": 1', '       }', '1 failed, 0 warning(s), 1 ok, 0 skipped.'].join('\n'));
  });
});
