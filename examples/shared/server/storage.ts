import { fileURLToPath } from 'node:url';
import { startLocalS3 } from '@upbeam/local-s3';
import type { UploadHandlerConfig } from '@upbeam/upload-server';
import { portFromEnv, PortTakenError } from './ports';

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
 * allow the page's origin. Otherwise `@upbeam/local-s3` starts on 127.0.0.1 (`LOCAL_S3_PORT`, default 4568),
 * keeping objects in `.data/s3` of `root` (the example's directory), with a CORS rule for `origins`; the
 * temporary-token strategy gets its credentials from that server's STS stand-in, over HTTP, as from a real STS.
 *
 * @throws {@link PortTakenError} when `LOCAL_S3_PORT` is taken.
 */
export async function openStorage(root: URL, origins: string[]): Promise<ExampleStorage> {
  if (REQUIRED_ENV.every((name) => process.env[name])) {
    return {
      // The temporary-token strategy uses STS GetFederationToken, or AssumeRole with S3_UPLOAD_ROLE_ARN.
      // Every setting, path style included, comes from the S3_UPLOAD_* env variables the handler reads.
      config: {},
      description: `bucket ${process.env.S3_UPLOAD_BUCKET} (${process.env.S3_UPLOAD_ENDPOINT ?? process.env.S3_UPLOAD_REGION}) from S3_UPLOAD_* env`,
      close: async () => {},
    };
  }
  const port = portFromEnv('LOCAL_S3_PORT', 4568);
  const local = await startLocalS3({
    port,
    directory: fileURLToPath(new URL('.data/s3', root)),
    allowedOrigins: origins,
  }).catch((error: unknown) => {
    throw PortTakenError.from(error, 'LOCAL_S3_PORT', port);
  });
  return {
    // AWS S3's defaults (a CRC-64/NVME checksum signed into every URL, no overwrites), which local-s3 verifies as
    // S3 does: what works here works on AWS.
    config: { ...local.handlerSettings, stsEndpoint: local.endpoint, checksum: 'crc64nvme', conditionalWrites: true },
    description: `the embedded S3-compatible server ${local.endpoint} (@upbeam/local-s3; set S3_UPLOAD_* for a real bucket)`,
    close: () => local.close(),
  };
}
