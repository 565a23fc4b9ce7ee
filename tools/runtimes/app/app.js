// The server app of the runtime matrix, the same on every runtime: the upload handler with a completion
// hook that names the runtime it ran on. Settings come from `env` (`S3_UPLOAD_*`, local-s3's `env`).
import { createUploadHandler } from '@upbeam/upload-server';

/** @param {string} runtime @param {Record<string, string | undefined>} env */
export function createApp(runtime, env) {
  return createUploadHandler({
    env,
    onUploadComplete: ({ key, size }) => ({ runtime, key, size }),
  });
}
