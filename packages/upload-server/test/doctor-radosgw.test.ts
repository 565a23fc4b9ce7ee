import { CreateBucketCommand, ListObjectsV2Command, PutBucketCorsCommand, PutBucketLifecycleConfigurationCommand, type S3Client } from '@aws-sdk/client-s3';
import { createUploadRole, radosgwS3Client } from '@upbeam/ceph-rgw';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { diagnoseUploadConfig, type Finding } from '../src/doctor/index';

// The config doctor against Ceph radosgw: a bucket whose CORS rule does not expose ETag is reported with
// the rule to apply; once that rule is applied, the CORS check passes.

const connection = inject('radosgw');
const ORIGIN = 'http://127.0.0.1:5173';
const bucket = `doctor-${Date.now().toString(36)}`;
let admin: S3Client;

const settings = () => ({
  provider: 'ceph' as const,
  accessKeyId: connection!.accessKeyId,
  secretAccessKey: connection!.secretAccessKey,
  endpoint: connection!.endpoint,
  region: connection!.region,
  bucket,
  origin: ORIGIN,
  env: {},
});

const byCheck = (findings: Finding[], check: string) => findings.find((finding) => finding.check === check)!;

beforeAll(async () => {
  if (!connection) return;
  admin = radosgwS3Client(connection);
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  // The misconfiguration of the support threads: everything but ExposeHeader ETag.
  await admin.send(
    new PutBucketCorsCommand({
      Bucket: bucket,
      CORSConfiguration: {
        CORSRules: [{ AllowedOrigins: [ORIGIN], AllowedMethods: ['GET', 'PUT', 'POST', 'HEAD', 'DELETE'], AllowedHeaders: ['*'] }],
      },
    }),
  );
});

afterAll(() => admin?.destroy());

describe.skipIf(!connection)('config doctor against radosgw', () => {
  it('reports a CORS rule without ExposeHeader ETag, with the rule to apply, and passes once it is applied', async () => {
    const before = await diagnoseUploadConfig(settings());
    expect(byCheck(before, 'bucket').status).toBe('ok');
    expect(byCheck(before, 'clock').status).toBe('ok');
    const cors = byCheck(before, 'cors');
    expect(cors.status).toBe('fail');
    expect(cors.message).toContain('ExposeHeaders lacks ETag');
    // radosgw 16 answers GetBucketCors with the methods in its own order (GET, PUT, DELETE, HEAD, POST).
    const [rule] = (cors.fix?.json as { CORSRules: Record<string, string[]>[] }).CORSRules;
    expect(rule).toMatchObject({ AllowedOrigins: [ORIGIN], AllowedHeaders: ['*'], ExposeHeaders: ['ETag', 'Retry-After'], MaxAgeSeconds: 3000 });
    expect([...rule!.AllowedMethods!].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'POST', 'PUT']);

    await admin.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: cors.fix!.json as never }));
    const after = await diagnoseUploadConfig(settings());
    expect(byCheck(after, 'cors')).toMatchObject({ status: 'ok' });
  });

  it('reports no AbortIncompleteMultipartUpload rule, and passes once the suggested rule is applied', async () => {
    const lifecycle = byCheck(await diagnoseUploadConfig(settings()), 'lifecycle');
    expect(lifecycle.status).toBe('warn');
    await admin.send(new PutBucketLifecycleConfigurationCommand({ Bucket: bucket, LifecycleConfiguration: lifecycle.fix!.json as never }));
    const after = byCheck(await diagnoseUploadConfig(settings()), 'lifecycle');
    expect(after.status).toBe('ok');
  });

  it('temporary token: AssumeRole, a write to its own key, a refused write to another', async () => {
    const roleArn = await createUploadRole(connection!);
    const token = byCheck(await diagnoseUploadConfig({ ...settings(), roleArn }), 'temporary-token');
    expect(token).toMatchObject({ status: 'ok' });
  });

  it('checksum: radosgw 16 verifies MD5, ignores x-amz-checksum-crc32c, -crc64nvme, -sha256; If-None-Match: 412 on PutObject, ignored on complete', async () => {
    // The ceph preset: md5, conditional writes on.
    const findings = await diagnoseUploadConfig(settings());
    const checksum = byCheck(findings, 'checksum');
    expect(checksum.status, checksum.message).toBe('ok');
    expect(checksum.message).toContain('md5: verified (a wrong content-md5 refused, 400 BadDigest)');
    // Measured: radosgw 16.2 stores a PUT whose x-amz-checksum-* does not match (it ignores the header).
    for (const algorithm of ['crc32c', 'crc64nvme', 'sha256']) expect(checksum.message).toContain(`${algorithm}: ignored`);
    const conditional = byCheck(findings, 'conditional-writes');
    expect(conditional.message).toContain('PutObject with If-None-Match: * answered 412');
    // Measured: radosgw 16.2 completes a multipart upload over an existing key whatever If-None-Match says.
    expect(conditional.message).toContain('CompleteMultipartUpload with If-None-Match: * overwrote the object');
    expect(conditional).toMatchObject({ status: 'warn' });
    expect(conditional.message).toContain('single PUTs only');

    // A checksum storage ignores fails, with the one it verifies as the fix.
    const crc = byCheck(await diagnoseUploadConfig({ ...settings(), checksum: 'crc32c' }), 'checksum');
    expect(crc.status).toBe('fail');
    expect(crc.message).toContain('Storage ignores crc32c');
    expect(crc.fix?.apply).toBe("Set checksum: 'md5' (S3_UPLOAD_CHECKSUM=md5).");
    // The probes leave nothing behind.
    const left = await admin.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'next-s3-uploads/upbeam-doctor-c' }));
    expect(left.KeyCount ?? 0).toBe(0);
  });

  it('wrong credentials and a missing bucket fail the bucket check and skip the rest', async () => {
    const wrongSecret = await diagnoseUploadConfig({ ...settings(), secretAccessKey: 'wrong' });
    expect(byCheck(wrongSecret, 'bucket').status).toBe('fail');
    expect(byCheck(wrongSecret, 'bucket').message).toContain('(403)');
    expect(byCheck(wrongSecret, 'cors').status).toBe('skipped');
    const missing = await diagnoseUploadConfig({ ...settings(), bucket: `${bucket}-missing` });
    expect(byCheck(missing, 'bucket').message).toContain('does not exist (404)');
  });
});
