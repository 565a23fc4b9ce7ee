/// <reference path="./s3rver.d.ts" />
/**
 * @module
 * A real S3-compatible server for the examples and the tests: `@20minutes/s3rver` on 127.0.0.1, with one
 * bucket whose CORS rule lets a browser page upload to it (PUT, POST for multipart, DELETE for abort) and
 * read the `ETag` header. It verifies SigV4 signatures, signed headers and expiry like S3 does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';

/** Access key id and secret that s3rver accepts. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** Options of {@link startLocalS3}. */
export interface LocalS3Options {
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  port?: number;
  /** Bucket created at start. @default 'upbeam-local' */
  bucket?: string;
  /** Origins the bucket's CORS rule allows. @default ['*'] */
  allowedOrigins?: string[];
  /** Where objects are kept; a fresh temp folder (removed on close) when unset. */
  directory?: string;
}

/** A running local server and the settings that reach it. */
export interface LocalS3 {
  /** `http://127.0.0.1:{port}` */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The same settings as the `S3_UPLOAD_*` env variables the upload handler reads. */
  env: Record<string, string>;
  /** Stops the server; removes the folder if this call created it. */
  close(): Promise<void>;
}

/** The CORS rule a browser upload needs: without `ExposeHeader ETag` a multipart upload cannot complete. */
export function corsXml(origins: string[]): string {
  const allowed = origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('');
  const methods = ['GET', 'PUT', 'POST', 'HEAD', 'DELETE'].map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('');
  return (
    '<CORSConfiguration><CORSRule>' +
    `${allowed}${methods}<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader>` +
    '<MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>'
  );
}

/** Starts s3rver on 127.0.0.1 with one CORS-enabled bucket. */
export async function startLocalS3(options: LocalS3Options = {}): Promise<LocalS3> {
  const bucket = options.bucket ?? 'upbeam-local';
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'upbeam-s3-')));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [corsXml(options.allowedOrigins ?? ['*'])] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  return {
    endpoint,
    bucket,
    region,
    ...LOCAL_S3_CREDENTIALS,
    env: {
      S3_UPLOAD_KEY: LOCAL_S3_CREDENTIALS.accessKeyId,
      S3_UPLOAD_SECRET: LOCAL_S3_CREDENTIALS.secretAccessKey,
      S3_UPLOAD_BUCKET: bucket,
      S3_UPLOAD_REGION: region,
      S3_UPLOAD_ENDPOINT: endpoint,
    },
    async close() {
      await server.close();
      if (options.directory === undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}
