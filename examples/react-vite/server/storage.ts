import { fileURLToPath } from 'node:url';
import { startLocalS3 } from '@upbeam/local-s3';
import type { UploadHandlerConfig } from '@upbeam/upload-server';

/** The storage the example uploads to: a real bucket from the env, or an embedded local server. */
export interface ExampleStorage {
  config: UploadHandlerConfig;
  /** One line for the console: where uploads go. */
  description: string;
  close(): Promise<void>;
}

const REQUIRED_ENV = ['S3_UPLOAD_KEY', 'S3_UPLOAD_SECRET', 'S3_UPLOAD_BUCKET', 'S3_UPLOAD_REGION'];

/**
 * With `S3_UPLOAD_KEY`, `S3_UPLOAD_SECRET`, `S3_UPLOAD_BUCKET` and `S3_UPLOAD_REGION` set (and optionally
 * `S3_UPLOAD_ENDPOINT`, `S3_UPLOAD_FORCE_PATH_STYLE=true`), uploads go to that bucket; its CORS rule must
 * allow the page's origin. Otherwise an embedded S3-compatible server starts on 127.0.0.1
 * (`LOCAL_S3_PORT`, default 4568), keeping objects in `.data/s3`, with a CORS rule for `origins`.
 */
export async function openStorage(origins: string[]): Promise<ExampleStorage> {
  if (REQUIRED_ENV.every((name) => process.env[name])) {
    return {
      // The temporary-token strategy uses STS GetFederationToken, or AssumeRole with S3_UPLOAD_ROLE_ARN.
      // Every setting, path style included, comes from the S3_UPLOAD_* env variables the handler reads.
      config: {},
      description: `bucket ${process.env.S3_UPLOAD_BUCKET} (${process.env.S3_UPLOAD_ENDPOINT ?? process.env.S3_UPLOAD_REGION}) from S3_UPLOAD_* env`,
      close: async () => {},
    };
  }
  const local = await startLocalS3({
    port: Number(process.env.LOCAL_S3_PORT ?? 4568),
    directory: fileURLToPath(new URL('../.data/s3', import.meta.url)),
    allowedOrigins: origins,
  });
  return {
    config: {
      accessKeyId: local.accessKeyId,
      secretAccessKey: local.secretAccessKey,
      bucket: local.bucket,
      region: local.region,
      endpoint: local.endpoint,
      forcePathStyle: true,
      // s3rver has no STS: the temporary-token strategy gets credentials from the local stand-in.
      stsClient: local.stsClient,
    },
    description: `embedded S3-compatible server ${local.endpoint}, bucket "${local.bucket}" (set S3_UPLOAD_* to use a real bucket)`,
    close: () => local.close(),
  };
}
