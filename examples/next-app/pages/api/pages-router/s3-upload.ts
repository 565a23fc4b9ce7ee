import { createPagesHandler } from '@upbeam/upload-server/next';

// The same preparation endpoint as app/api/s3-upload/route.ts, as a Pages Router API route, for apps that
// have not moved to the App Router: /api/pages-router/s3-upload. The page's "Route" choice sends its
// uploads here. Storage settings come from the same S3_UPLOAD_* variables, read on the first request.
export default createPagesHandler({
  forcePathStyle: process.env.S3_UPLOAD_FORCE_PATH_STYLE === 'true',
});

// The route reads and caps the raw body itself (16 KiB, 413 in the handler's JSON shape). Next.js reads
// this by static analysis when it builds: it must be a literal here, not imported.
export const config = { api: { bodyParser: false } };
