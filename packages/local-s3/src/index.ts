/// <reference path="./s3rver.d.ts" />
/**
 * @module
 * A local S3-compatible server for development and tests: `@20minutes/s3rver` on 127.0.0.1 with one bucket
 * whose CORS rule lets a browser page upload to it, plus what s3rver lacks for browser uploads: multipart
 * AbortMultipartUpload, ListParts and ListMultipartUploads, and a stand-in for STS on the same port for the
 * temporary-token strategy. It checks SigV4 signatures, signed headers and expiry like S3 does, enforces the
 * session policy of the stand-in's credentials, stores a PUT's body whole or not at all, verifies S3's
 * checksums (`x-amz-checksum-*`, `Content-MD5`, multipart composite and full-object ones), honours
 * `If-None-Match: *`, and enforces a form POST's policy (signature, expiration, conditions, no field outside
 * them, one file), as S3 does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from '@20minutes/s3rver';
import { presignedHeadersSigned } from './presigned-headers';
import { bucketSlashSignature } from './bucket-slash';
import { listPages } from './list-pages';
import { issueLocalCredentials, LOCAL_S3_CREDENTIALS, type LocalCredentials } from './credentials';
import { incompleteBodies } from './incomplete-body';
import { guardStorePaths, keyCheck } from './key-check';
import { abortIncompleteUploads } from './lifecycle';
import { multipartCalls } from './multipart';
import { checksumRequests } from './checksum-requests';
import { multipartChecksums } from './multipart-checksums';
import { postObjects } from './post-object';
import { sessionPolicies } from './session-access';
import { sessionOf, stsStandIn } from './sts';
import { storeWholeObjects, type ObjectStore } from './whole-objects';

export { LOCAL_S3_CREDENTIALS, type LocalCredentials };

/** Options of {@link startLocalS3}. */
export interface LocalS3Options {
  /** Port on `host`; 0 picks a free one. @default 0 */
  port?: number;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /** Bucket created at start (kept, with its objects, when `directory` already holds it). @default 'upbeam-local' */
  bucket?: string;
  /** Origins the bucket's CORS rule allows, e.g. `['http://localhost:3000']`. @default ['*'] */
  allowedOrigins?: string[];
  /** Folder where objects are kept; a fresh temp folder (removed on close) when unset. */
  directory?: string;
  /**
   * At start, multipart uploads in `directory` initiated longer ago than this are removed with their parts,
   * as S3's lifecycle rule `AbortIncompleteMultipartUpload` does (a browser closed mid-upload cannot abort
   * its own upload). Seconds. @default 86400 (one day, the lifecycle rule the docs' Security guide recommends for real buckets)
   */
  abortIncompleteUploadsAfter?: number;
}

/** A running local server and the settings that reach it. */
export interface LocalS3 {
  /** `http://{host}:{port}`: the S3 endpoint, and the STS endpoint too. */
  endpoint: string;
  bucket: string;
  /** Always `us-east-1`: s3rver has no regions, any region signs. */
  region: string;
  /** The server's own credentials (`S3RVER`). */
  accessKeyId: string;
  secretAccessKey: string;
  /** The upload handler's storage settings for this server (path style, the server's credentials). */
  handlerSettings: {
    accessKeyId: string;
    secretAccessKey: string;
    bucket: string;
    region: string;
    endpoint: string;
    forcePathStyle: true;
  };
  /** A new S3 client with the server's credentials, to read back what was stored; `destroy()` it after use. */
  createClient(): S3Client;
  /**
   * The `S3_UPLOAD_*` env variables an upload handler reads to use this server with both strategies:
   * `S3_UPLOAD_KEY`, `S3_UPLOAD_SECRET`, `S3_UPLOAD_BUCKET`, `S3_UPLOAD_REGION`, `S3_UPLOAD_ENDPOINT`,
   * `S3_UPLOAD_FORCE_PATH_STYLE=true` and `S3_UPLOAD_STS_ENDPOINT` (the same URL as the endpoint).
   */
  env: Record<string, string>;
  /**
   * The STS stand-in without HTTP, to pass as the upload handler's `stsClient` in tests: answers any
   * command with fresh credentials valid 3600 seconds, bound to the command's session `Policy` as over HTTP
   * (an `AssumeRole` command is one with a `RoleArn`; any other is a `GetFederationToken`). Apps use
   * `S3_UPLOAD_STS_ENDPOINT` instead.
   * @throws an error named `MalformedPolicyDocument` when the `Policy` is not an IAM policy.
   */
  stsClient: { send(command: unknown): Promise<{ Credentials: LocalCredentials }> };
  /** Stops the server; removes the folder if this call created it. */
  close(): Promise<void>;
}

/** The answer headers of S3's additional checksums, which a page reads (a part's value, the object's, the upload's algorithm). */
const CHECKSUM_ANSWER_HEADERS = [
  'x-amz-checksum-crc32',
  'x-amz-checksum-crc32c',
  'x-amz-checksum-crc64nvme',
  'x-amz-checksum-sha1',
  'x-amz-checksum-sha256',
  'x-amz-checksum-type',
  'x-amz-checksum-algorithm',
];

/**
 * The bucket's CORS rule: the methods of a browser upload (PUT, POST for multipart, DELETE for abort, GET
 * for ListParts) and the `ETag`, `Retry-After` and `x-amz-checksum-*` headers exposed: without `ETag` a
 * multipart upload cannot complete, and a page reads a part's or an object's checksum in `x-amz-checksum-*`.
 */
export function corsXml(origins: string[]): string {
  const allowed = origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('');
  const methods = ['GET', 'PUT', 'POST', 'HEAD', 'DELETE'].map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('');
  const exposed = ['ETag', 'Retry-After', ...CHECKSUM_ANSWER_HEADERS].map((h) => `<ExposeHeader>${h}</ExposeHeader>`).join('');
  return (
    '<CORSConfiguration><CORSRule>' +
    `${allowed}${methods}<AllowedHeader>*</AllowedHeader>${exposed}` +
    '<MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>'
  );
}

const REGION = 'us-east-1';
const ONE_DAY_SECONDS = 86_400;
/** Lifetime of the credentials `stsClient` hands out, as the upload handler asks of STS. */
const STS_CLIENT_SECONDS = 3600;

/**
 * Starts the server with one CORS-enabled bucket.
 *
 * @throws the listen error when the port is taken (`code: 'EADDRINUSE'`).
 * @example
 * const storage = await startLocalS3({ port: 4568, allowedOrigins: ['http://localhost:3000'] });
 * Object.assign(process.env, storage.env); // createUploadHandler() now uploads there, both strategies
 */
export async function startLocalS3(options: LocalS3Options = {}): Promise<LocalS3> {
  const bucket = options.bucket ?? 'upbeam-local';
  const host = options.host ?? '127.0.0.1';
  const directory = options.directory === undefined ? await mkdtemp(join(tmpdir(), 'upbeam-s3-')) : resolve(options.directory);
  const server = new S3rver({
    address: host,
    port: options.port ?? 0,
    silent: true,
    directory,
    // Path-style addressing only: a host name is never read as a bucket name.
    vhostBuckets: false,
    configureBuckets: [{ name: bucket, configs: [corsXml(options.allowedOrigins ?? ['*'])] }],
  });
  // Keys and bucket names are names, never paths: refused when s3rver would read them as paths (key-check.ts).
  guardStorePaths(server.store);
  // A PutObject's body (and a completion's, and a part's) is stored whole and verified, or not at all (whole-objects.ts).
  storeWholeObjects(server.store as unknown as ObjectStore);
  // Before s3rver's router, which is its last middleware: answered here, or handed on to it.
  server.middleware.splice(
    server.middleware.length - 1,
    0,
    keyCheck(),
    presignedHeadersSigned(),
    stsStandIn(),
    sessionPolicies(),
    postObjects(),
    bucketSlashSignature(),
    listPages(),
    incompleteBodies(directory),
    multipartCalls(directory),
    checksumRequests(),
    multipartChecksums(),
  );
  await server.configureBuckets();
  await abortIncompleteUploads(directory, bucket, options.abortIncompleteUploadsAfter ?? ONE_DAY_SECONDS);
  // Our own HTTP server rather than s3rver's run(), whose server crashes the process on a taken port.
  const http = createServer(server.callback());
  await new Promise<void>((done, fail) => {
    http.once('error', fail);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', fail);
      done();
    });
  });
  const { port } = http.address() as AddressInfo;
  const endpoint = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const handlerSettings = { ...LOCAL_S3_CREDENTIALS, bucket, region: REGION, endpoint, forcePathStyle: true as const };
  return {
    handlerSettings,
    createClient: () =>
      new S3Client({
        region: REGION,
        endpoint,
        forcePathStyle: true,
        credentials: LOCAL_S3_CREDENTIALS,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    endpoint,
    bucket,
    region: REGION,
    ...LOCAL_S3_CREDENTIALS,
    env: {
      S3_UPLOAD_KEY: LOCAL_S3_CREDENTIALS.accessKeyId,
      S3_UPLOAD_SECRET: LOCAL_S3_CREDENTIALS.secretAccessKey,
      S3_UPLOAD_BUCKET: bucket,
      S3_UPLOAD_REGION: REGION,
      S3_UPLOAD_ENDPOINT: endpoint,
      S3_UPLOAD_FORCE_PATH_STYLE: 'true',
      S3_UPLOAD_STS_ENDPOINT: endpoint,
    },
    stsClient: {
      send: async (command) => {
        const input = (command as { input?: { Policy?: string; RoleArn?: string } } | undefined)?.input;
        const session = sessionOf(input?.RoleArn === undefined ? 'GetFederationToken' : 'AssumeRole', input?.Policy);
        return { Credentials: issueLocalCredentials(STS_CLIENT_SECONDS, session) };
      },
    },
    async close() {
      await new Promise<void>((done) => {
        http.close(() => done());
        http.closeAllConnections();
      });
      if (options.directory === undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}
