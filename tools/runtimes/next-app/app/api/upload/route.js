// The Next.js edge runtime: the App Router route of `@upbeam/upload-server/next` with `runtime = 'edge'`,
// settings from process.env (S3_UPLOAD_*), as the README's "Next.js edge runtime" shows.
import { createRouteHandler } from '@upbeam/upload-server/next';

export const runtime = 'edge';

export const { POST } = createRouteHandler({ onUploadComplete: ({ key, size }) => ({ runtime: 'next-edge', key, size }) });
