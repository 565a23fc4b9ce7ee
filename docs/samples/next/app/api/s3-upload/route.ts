// app/api/s3-upload/route.ts: the server's side, reading its settings from the S3_UPLOAD_* variables
import { createRouteHandler } from '@upbeam/upload-server/next';

export const { POST } = createRouteHandler({
  allowedContentTypes: ['image/*', 'application/pdf'],
  maxFileSize: 100 * 1024 * 1024, // bytes
});
