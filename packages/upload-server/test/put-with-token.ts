import { randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';

/**
 * What a browser does with a temporary-token answer, for the suites: a PutObject of `size` random bytes
 * (with `contentType` when given) to the answer's key, signed with its credentials.
 */
export async function putWithToken(
  answer: Pick<TemporaryTokenUploadResponse, 'token' | 'region' | 'endpoint' | 'bucket' | 'key'>,
  size: number,
  contentType?: string,
): Promise<void> {
  const { Credentials } = answer.token;
  const browser = new S3Client({
    region: answer.region,
    endpoint: answer.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: Credentials.AccessKeyId, secretAccessKey: Credentials.SecretAccessKey, sessionToken: Credentials.SessionToken },
  });
  try {
    await browser.send(new PutObjectCommand({ Bucket: answer.bucket, Key: answer.key, Body: randomBytes(size), ContentType: contentType }));
  } finally {
    browser.destroy();
  }
}
