/// <reference path="./s3rver.d.ts" />
/**
 * @module
 * A real S3-compatible server for the examples and the tests: `@20minutes/s3rver` on 127.0.0.1, with one
 * bucket whose CORS rule lets a browser page upload to it (PUT, POST for multipart, DELETE for abort) and
 * read the `ETag` header. It verifies SigV4 signatures, signed headers and expiry like S3 does.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
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
  /** The upload handler's storage settings for this server (path style, admin credentials). */
  handlerSettings: {
    accessKeyId: string;
    secretAccessKey: string;
    bucket: string;
    region: string;
    endpoint: string;
    forcePathStyle: true;
  };
  /** A new S3 client with the admin credentials, to read back what was stored; `destroy()` it after use. */
  createClient(): S3Client;
  /** The same settings as the `S3_UPLOAD_*` env variables the upload handler reads. */
  env: Record<string, string>;
  /**
   * A stand-in for STS, to pass as the upload handler's `stsClient`: s3rver has no STS, so this answers
   * any token request with a fresh key pair registered in s3rver (and a dummy session token, which s3rver
   * never checks). s3rver does not enforce the session policy: the one-key limit is proven against Ceph
   * radosgw, not here. For the local demo only.
   */
  stsClient: { send(command: unknown): Promise<{ Credentials: LocalCredentials }> };
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

interface LocalCredentials {
  AccessKeyId: string;
  SecretAccessKey: string;
  SessionToken: string;
  Expiration: Date;
}

/** s3rver's account registry (`lib/models/account.js`): extra key pairs it accepts for SigV4. */
const account = createRequire(import.meta.url)('@20minutes/s3rver/lib/models/account.js') as {
  DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
};

const TOKEN_SECONDS = 3600;

function issueLocalCredentials(): LocalCredentials {
  const AccessKeyId = `LOCAL${randomBytes(8).toString('hex').toUpperCase()}`;
  const SecretAccessKey = randomBytes(24).toString('base64url');
  account.DUMMY_ACCOUNT.createKeyPair(AccessKeyId, SecretAccessKey);
  return {
    AccessKeyId,
    SecretAccessKey,
    SessionToken: `local-${randomBytes(16).toString('base64url')}`,
    Expiration: new Date(Date.now() + TOKEN_SECONDS * 1000),
  };
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
  const handlerSettings = { ...LOCAL_S3_CREDENTIALS, bucket, region, endpoint, forcePathStyle: true as const };
  return {
    handlerSettings,
    createClient: () =>
      new S3Client({ region, endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS }),
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
    stsClient: { send: async () => ({ Credentials: issueLocalCredentials() }) },
    async close() {
      await server.close();
      if (options.directory === undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}
