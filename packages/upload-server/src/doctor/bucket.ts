import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

/**
 * HeadBucket with the server's credentials: the credentials are valid, the bucket exists and is
 * reachable, and its region (storage's `x-amz-bucket-region` header, when it sends one) is the configured one.
 */
export async function checkBucket({ s3, settings, lastHeaders }: CheckContext): Promise<Finding> {
  const check = 'bucket';
  const where = `bucket "${settings.bucket}" at ${settings.endpoint ?? `AWS S3 (${settings.region})`}`;
  try {
    await s3.send(new HeadBucketCommand({ Bucket: settings.bucket }));
  } catch (error) {
    const status = httpStatus(error);
    const region = lastHeaders()['x-amz-bucket-region'];
    if (region !== undefined && region !== settings.region) return wrongRegion(where, settings.region, region);
    if (status === 404) {
      return { check, status: 'fail', message: `${where} does not exist (404). Create it, or fix S3_UPLOAD_BUCKET.` };
    }
    if (status === 403) {
      return {
        check,
        status: 'fail',
        message: `Storage refused HeadBucket on ${where} (403): the access key or secret is wrong, or the credentials lack s3:ListBucket on the bucket. Check S3_UPLOAD_KEY and S3_UPLOAD_SECRET.`,
      };
    }
    if (status === undefined) {
      return { check, status: 'fail', message: `${where} is unreachable: ${errorName(error)} ${(error as Error).message}. Check S3_UPLOAD_ENDPOINT.` };
    }
    return { check, status: 'fail', message: `HeadBucket on ${where} answered ${status} ${errorName(error)}.` };
  }
  const region = lastHeaders()['x-amz-bucket-region'];
  if (region !== undefined && region !== settings.region && settings.region !== 'auto') {
    return wrongRegion(where, settings.region, region);
  }
  const regionNote = region === undefined ? 'storage did not name its region' : `region ${region}`;
  return { check, status: 'ok', message: `Credentials valid; ${where} reachable (${regionNote}).` };
}

function wrongRegion(where: string, configured: string, actual: string): Finding {
  return {
    check: 'bucket',
    status: 'fail',
    message: `${where} is in region ${actual}, not ${configured}: requests signed for ${configured} are refused or redirected.`,
    fix: { apply: 'Set S3_UPLOAD_REGION (or `region`)', json: { S3_UPLOAD_REGION: actual } },
  };
}
