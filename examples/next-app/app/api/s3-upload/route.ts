import { createRouteHandler } from '@upbeam/upload-server/next';

// The preparation endpoint, at the path the browser calls by default (/api/s3-upload).
// Storage settings come from S3_UPLOAD_KEY, S3_UPLOAD_SECRET, S3_UPLOAD_BUCKET, S3_UPLOAD_REGION and, for
// S3-compatible servers, S3_UPLOAD_ENDPOINT: from `.env.local` or the environment, read on the first request
// (so `next build` needs none of them). `pnpm dev` and `pnpm start` set them to an embedded local server
// when none are set (scripts/with-local-s3.ts).
export const { POST } = createRouteHandler({
  // `{endpoint}/{bucket}/{key}` addresses: MinIO, Ceph and the embedded local server need them.
  forcePathStyle: process.env.S3_UPLOAD_FORCE_PATH_STYLE === 'true',
});
