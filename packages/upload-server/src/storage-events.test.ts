import { describe, expect, it } from 'vitest';
import { completeNotifiedUploads, recordKey } from './storage-events';

// A storage notification read before any storage call; its completion against radosgw's real notifications is
// tested in test/storage-events.test.ts.

const config = { accessKeyId: 'AKID', secretAccessKey: 'SECRET', bucket: 'uploads', region: 'eu-west-1', onUploadComplete: () => {} };
const record = (bucket: string, eventName: string, key: string) => ({ eventSource: 'aws:s3', eventName, s3: { bucket: { name: bucket }, object: { key, size: 1 } } });

describe('completeNotifiedUploads', () => {
  it.each([null, 'text', {}, { Records: 'x' }, { Type: 'Notification', Message: 'not json' }, { Records: Array.from({ length: 101 }, () => ({})) }])(
    'refuses a body that is not an S3 event notification (%j) with 400',
    async (body) => {
      await expect(completeNotifiedUploads(config, body)).rejects.toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    },
  );

  it("passes over other events, other buckets and the handler's own objects without a storage request", async () => {
    const records = [
      record('uploads', 'ObjectRemoved:Delete', 'next-s3-uploads/a/b.png'),
      record('other-bucket', 'ObjectCreated:Put', 'next-s3-uploads/a/b.png'),
      record('uploads', 'ObjectCreated:Put', '.upbeam/completions/x.json'),
      record('uploads', 'ObjectCreated:Put', 'elsewhere/b.png'),
    ];
    // The endpoint goes nowhere: a storage request would fail the object, not pass it over.
    const sns = { Type: 'Notification', Message: JSON.stringify({ Records: records }) };
    expect(await completeNotifiedUploads({ ...config, endpoint: 'http://127.0.0.1:9' }, sns)).toEqual({ objects: [], ignored: 4 });
  });
});

describe('recordKey', () => {
  it("decodes AWS's URL-encoded keys and takes radosgw's as they are", () => {
    expect(recordKey({ eventSource: 'aws:s3', s3: { object: { key: 'a/my+photo%C3%A9.png' } } })).toBe('a/my photoé.png');
    expect(recordKey({ eventSource: 'ceph:s3', s3: { object: { key: 'a/my photo+1.png' } } })).toBe('a/my photo+1.png');
    expect(recordKey({ eventSource: 'aws:s3', s3: { object: { key: '%E0%A4%A' } } })).toBeUndefined();
  });
});
