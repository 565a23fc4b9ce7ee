import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnoseUploadConfig, type Finding } from '../src/doctor/index';

// The doctor's checksum and conditional-writes checks against @upbeam/local-s3, which verifies every
// x-amz-checksum-* and Content-MD5 as S3 does (a wrong value refused with 400 BadDigest, nothing stored).

let storage: LocalS3;
const byCheck = (findings: Finding[], check: string) => findings.find((finding) => finding.check === check)!;

beforeAll(async () => {
  storage = await startLocalS3();
});
afterAll(() => storage?.close());

describe('config doctor against local-s3', () => {
  it('checksum: every algorithm verified; off (an endpoint without provider) is a warning with crc64nvme as the fix', async () => {
    const findings = await diagnoseUploadConfig({ ...storage.handlerSettings, env: {} });
    const checksum = byCheck(findings, 'checksum');
    for (const algorithm of ['crc32c', 'crc64nvme', 'sha256', 'md5']) expect(checksum.message).toContain(`${algorithm}: verified`);
    expect(checksum).toMatchObject({ status: 'warn', fix: { apply: "Set checksum: 'crc64nvme' (S3_UPLOAD_CHECKSUM=crc64nvme)." } });

    const on = byCheck(await diagnoseUploadConfig({ ...storage.handlerSettings, checksum: 'sha256', env: {} }), 'checksum');
    expect(on.status, on.message).toBe('ok');
    expect(on.message).toContain('sha256 is verified');
    // Nothing of the probes is left.
    const s3 = storage.createClient();
    try {
      const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
      const left = await s3.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: 'next-s3-uploads/upbeam-doctor-' }));
      expect(left.KeyCount ?? 0).toBe(0);
    } finally {
      s3.destroy();
    }
  });

  it('conditional writes: PutObject and CompleteMultipartUpload with If-None-Match: * over an existing key answer 412', async () => {
    const conditional = byCheck(await diagnoseUploadConfig({ ...storage.handlerSettings, conditionalWrites: true, env: {} }), 'conditional-writes');
    expect(conditional).toMatchObject({
      status: 'ok',
      message: 'Storage refuses overwrites: PutObject with If-None-Match: * answered 412; CompleteMultipartUpload with If-None-Match: * answered 412.',
    });
    // Off (an endpoint without provider), storage that refuses overwrites is a warning that recommends them.
    const off = byCheck(await diagnoseUploadConfig({ ...storage.handlerSettings, env: {} }), 'conditional-writes');
    expect(off).toMatchObject({ status: 'warn', fix: { apply: expect.stringContaining('conditionalWrites: true') } });
  });
});
