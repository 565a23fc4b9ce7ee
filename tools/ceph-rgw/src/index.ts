/**
 * @module
 * A real S3 server for the conformance tests: a single-node Ceph radosgw on 127.0.0.1, started by this
 * package's script (`tools/ceph-rgw/ceph-rgw.sh`: install from Debian's packages, start, stop). Unlike
 * s3rver it is the production S3 gateway of Ceph: SigV4, multipart (`-N` ETags, EntityTooSmall, Abort),
 * IAM roles and STS AssumeRole.
 *
 * Starting it takes ~15 s, so the tests start it once per run (`./global-setup.ts`) and read its
 * {@link RadosgwConnection} with vitest's `inject('radosgw')`. It keeps objects in RAM: keep test data small.
 */
import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { CreateBucketCommand, PutBucketCorsCommand, PutBucketPolicyCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
// Types only: brings vitest into the program for the `ProvidedContext` augmentation at the end.
import type {} from 'vitest';

/** The package's script that installs, starts and stops radosgw (`tools/ceph-rgw/ceph-rgw.sh`). */
export const CEPH_RGW_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'ceph-rgw.sh');

/** What to run when radosgw is missing. */
export const RADOSGW_MISSING =
  'radosgw is not installed: run `bash scripts/setup.sh --ceph` (apt-get install of the Ceph packages, ~30 s).';

/** The radosgw user the script creates (`--uid=test`); the trust policy of upload roles names it. */
export const RADOSGW_USER_ARN = 'arn:aws:iam:::user/test';

/**
 * Two more radosgw users the script creates (`--uid=other1`, `other2`; the `roles` capability), with fixed keys: a
 * test that needs a role open to role sessions (an attack) makes it trust one of them, so that the upload handler
 * of every other test, whose tokens are sessions of `test`'s, cannot assume it (the handler refuses tokens while
 * one can). One user per such test file: each file's open role is then seen by its own handlers only.
 */
export const OTHER_USERS = ['other1', 'other2'].map((uid) => ({ arn: `arn:aws:iam:::user/${uid}`, accessKeyId: `AK${uid}`, secretAccessKey: `SK${uid}` }));

/** `connection` with the keys of {@link OTHER_USERS}[`index`]: buckets and roles it creates belong to that user. */
export function otherUserConnection(connection: RadosgwConnection, index: 0 | 1): RadosgwConnection {
  const user = OTHER_USERS[index]!;
  return { ...connection, accessKeyId: user.accessKeyId, secretAccessKey: user.secretAccessKey };
}

/** Where and how to reach a running radosgw. Serializable: it is what the global setup provides to tests. */
export interface RadosgwConnection {
  /** `http://127.0.0.1:{port}` */
  endpoint: string;
  /** radosgw accepts any region in the SigV4 scope; the SDK needs one. */
  region: string;
  /** Keys of the script's admin user `test` (with the `roles` and `user-policy` caps). */
  accessKeyId: string;
  secretAccessKey: string;
}

/** Options of {@link startRadosgw}. */
export interface RadosgwOptions {
  /** The cluster's folder (wiped by the script first). @default a fresh temp folder, removed on close */
  dir?: string;
  /** radosgw's port on 127.0.0.1; the monitor takes `port + 1`. @default a free pair */
  port?: number;
}

/** A running radosgw. */
export interface Radosgw extends RadosgwConnection {
  /** The cluster's folder: `log/client.rgw.a.log` holds radosgw's reasons for a 403. */
  dir: string;
  /** See {@link createBucket}. */
  createBucket(name: string, options: BucketOptions): Promise<void>;
  /** See {@link createUploadRole}. */
  createUploadRole(options?: string | UploadRoleOptions): Promise<string>;
  /**
   * Frees the RADOS objects of deleted S3 objects now (`ceph-rgw.sh gc`, ~1 s), where radosgw would free them
   * in the background within 10 s: a benchmark's next upload then runs beside no garbage collection.
   */
  collectGarbage(): Promise<void>;
  /** Stops the daemons (`ceph-rgw.sh stop`); removes the folder if {@link startRadosgw} created it. */
  close(): Promise<void>;
}

/** Options of {@link createBucket}. */
export interface BucketOptions {
  /** Origins of the bucket's CORS rule, e.g. `['http://127.0.0.1:5173']` or `['*']`. */
  allowedOrigins: string[];
  /**
   * Apply {@link copyRefusingBucketPolicy}, as a deployment that followed the security guide has: without it
   * the upload handler refuses presigned URLs on radosgw (it applies an unsigned `x-amz-copy-source`).
   * `false` leaves the bucket as radosgw creates it, for the tests of that refusal.
   * @default true
   */
  refuseCopies?: boolean;
}

/**
 * The statement of the security guide's Ceph bucket policy (`unsignedHeaderBucketPolicy` of
 * `@upbeam/upload-server/doctor`, which tests apply whole where they need it) that the upload handler's
 * presigned strategy depends on: PutObject with an `x-amz-copy-source` is refused for everyone (radosgw 16.2
 * inverts `Null`, hence `StringLike "*"`). A copy, not an import: upload-server's tests depend on this package.
 */
export function copyRefusingBucketPolicy(bucket: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'NoCopySource',
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:PutObject',
        Resource: `arn:aws:s3:::${bucket}/*`,
        Condition: { StringLike: { 's3:x-amz-copy-source': '*' } },
      },
    ],
  });
}

/** Milliseconds `ceph-rgw.sh start` may take: it waits up to 90 s for radosgw to answer. */
const START_TIMEOUT_MS = 150_000;

const execFileAsync = promisify(execFile);

/** Whether a `radosgw` executable is on PATH (`scripts/setup.sh --ceph` installs it). */
export function isRadosgwAvailable(): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, 'radosgw'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Starts a fresh single-node Ceph cluster with radosgw on 127.0.0.1 (~15 s).
 * @throws Error when radosgw or the script is missing, or the script fails (with its output).
 */
export async function startRadosgw(options: RadosgwOptions = {}): Promise<Radosgw> {
  if (!isRadosgwAvailable()) throw new Error(RADOSGW_MISSING);
  if (!existsSync(CEPH_RGW_SCRIPT)) {
    throw new Error(`${CEPH_RGW_SCRIPT} is missing: the package ships it beside src/.`);
  }
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'upbeam-rgw-')));
  const port = options.port ?? (await freePortPair());
  const stopArgs = [CEPH_RGW_SCRIPT, 'stop', dir];
  const removeDir = () => {
    if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
  };
  // If this process exits without close() (Ctrl-C: vitest exits without teardown), the daemons, which
  // detach from it, would keep running: stop them synchronously on the way out.
  const stopOnExit = () => {
    spawnSync('bash', stopArgs, { stdio: 'ignore' });
    removeDir();
  };
  process.once('exit', stopOnExit);
  const cleanUp = async () => {
    process.off('exit', stopOnExit);
    await execFileAsync('bash', stopArgs);
    removeDir();
  };

  let connection: RadosgwConnection;
  try {
    const { stdout } = await execFileAsync('bash', [CEPH_RGW_SCRIPT, 'start', dir, String(port)], {
      timeout: START_TIMEOUT_MS,
    });
    const line = (name: string) => {
      const value = new RegExp(`^${name}=(.+)$`, 'm').exec(stdout)?.[1];
      if (value === undefined) throw new Error(`ceph-rgw.sh start printed no ${name} line:\n${stdout}`);
      return value;
    };
    connection = {
      endpoint: line('RGW_ENDPOINT'),
      region: 'us-east-1',
      accessKeyId: line('RGW_ACCESS_KEY'),
      secretAccessKey: line('RGW_SECRET_KEY'),
    };
  } catch (error) {
    await cleanUp().catch(() => {});
    throw new Error(`ceph-rgw.sh start failed on port ${port}`, { cause: error });
  }
  let closing: Promise<void> | undefined;
  return {
    ...connection,
    dir,
    createBucket: (name, bucketOptions) => createBucket(connection, name, bucketOptions),
    createUploadRole: (options) => createUploadRole(connection, options),
    collectGarbage: async () => {
      await execFileAsync('bash', [CEPH_RGW_SCRIPT, 'gc', dir], { timeout: 60_000 });
    },
    close: () => (closing ??= cleanUp()),
  };
}

/**
 * An S3 client for radosgw: path-style addressing (no `bucket.127.0.0.1`) and checksums only where an
 * operation requires them (the SDK's default CRC32 sends bodies `aws-chunked`, which radosgw answers 411).
 * `credentials` defaults to the admin keys of the connection. Destroy it when done.
 */
export function radosgwS3Client(
  connection: RadosgwConnection,
  credentials: S3ClientConfig['credentials'] = adminCredentials(connection),
): S3Client {
  return new S3Client({
    region: connection.region,
    endpoint: connection.endpoint,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Creates a bucket with the CORS rule a browser upload needs: the given origins, methods GET PUT POST
 * HEAD DELETE (DELETE aborts a multipart upload), any request header, and `ETag` exposed (without it a
 * multipart upload cannot complete); and, unless `refuseCopies` is false, {@link copyRefusingBucketPolicy}.
 */
export async function createBucket(connection: RadosgwConnection, name: string, options: BucketOptions): Promise<void> {
  const s3 = radosgwS3Client(connection);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: name }));
    await s3.send(
      new PutBucketCorsCommand({
        Bucket: name,
        CORSConfiguration: {
          CORSRules: [
            {
              AllowedOrigins: options.allowedOrigins,
              AllowedMethods: ['GET', 'PUT', 'POST', 'HEAD', 'DELETE'],
              AllowedHeaders: ['*'],
              ExposeHeaders: ['ETag'],
              MaxAgeSeconds: 3000,
            },
          ],
        },
      }),
    );
    if (options.refuseCopies !== false) await s3.send(new PutBucketPolicyCommand({ Bucket: name, Policy: copyRefusingBucketPolicy(name) }));
  } finally {
    s3.destroy();
  }
}

/**
 * Upload-handler settings for the temporary-token strategy on radosgw: the admin keys, path style, and STS
 * `AssumeRole` of `roleArn` at radosgw's own endpoint.
 */
export function tokenHandlerSettings(connection: RadosgwConnection, bucket: string, roleArn: string) {
  const { accessKeyId, secretAccessKey, region, endpoint } = connection;
  return { accessKeyId, secretAccessKey, bucket, region, endpoint, forcePathStyle: true, roleArn, stsEndpoint: endpoint };
}

/** A bucket of its own on a shared radosgw, in the shape of `@upbeam/local-s3`'s server, for suites that run on both. */
export interface RadosgwBucket {
  bucket: string;
  /** The upload handler's storage settings for this bucket (admin credentials, path style). */
  handlerSettings: {
    accessKeyId: string;
    secretAccessKey: string;
    bucket: string;
    region: string;
    endpoint: string;
    forcePathStyle: true;
  };
  /** A new admin S3 client; destroy it after use. */
  createClient(): S3Client;
  /** Nothing to stop: the run's global setup stops radosgw. */
  close(): Promise<void>;
}

/** Creates a fresh CORS bucket (name `{prefix}-{random}`) on the run's radosgw. */
export async function createTestBucket(
  connection: RadosgwConnection,
  prefix: string,
  options: BucketOptions = { allowedOrigins: ['*'] },
): Promise<RadosgwBucket> {
  const bucket = `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
  await createBucket(connection, bucket, options);
  const { endpoint, region, accessKeyId, secretAccessKey } = connection;
  return {
    bucket,
    handlerSettings: { accessKeyId, secretAccessKey, bucket, region, endpoint, forcePathStyle: true },
    createClient: () => radosgwS3Client(connection),
    close: async () => {},
  };
}

/**
 * Trust policy of an upload role: only `principal` (the server's radosgw user) may assume it, and only
 * with long-term keys. The condition `Null aws:TokenIssueTime = true` is what stops an upload token (a
 * role session, whose requests carry a token issue time) from calling AssumeRole on the same role: radosgw
 * accepts a role session as the trusted user (`/work/shared/S3-TESTING.md`, "STS on radosgw") and does
 * not apply session policies to STS calls.
 */
export function uploadRoleTrustPolicy(principal = RADOSGW_USER_ARN): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { AWS: [principal] },
        Action: ['sts:AssumeRole'],
        Condition: { Null: { 'aws:TokenIssueTime': 'true' } },
      },
    ],
  });
}

/**
 * The trust policy that lets a role's own sessions assume it again (no condition): what the README's role
 * looked like before 2026-11-23. Only for the test that proves the handler refuses it.
 */
export function chainableRoleTrustPolicy(principal = RADOSGW_USER_ARN): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { AWS: [principal] }, Action: ['sts:AssumeRole'] }],
  });
}

/** Options of {@link createUploadRole}. */
export interface UploadRoleOptions {
  /** Role name; unique per call by default, as tests share one radosgw. */
  name?: string;
  /** Trust policy JSON. @default {@link uploadRoleTrustPolicy}() */
  trustPolicy?: string;
}

/**
 * Creates an IAM role that the admin user may assume with its own keys ({@link uploadRoleTrustPolicy}) and
 * that allows `s3:*`: an STS session policy can only narrow the role's own policy.
 * @param options A role name (string, for older callers) or {@link UploadRoleOptions}.
 * @returns The role's ARN, for STS `AssumeRole`.
 */
export async function createUploadRole(connection: RadosgwConnection, options: string | UploadRoleOptions = {}): Promise<string> {
  const { name = `upbeam-upload-${Math.random().toString(36).slice(2, 10)}`, trustPolicy = uploadRoleTrustPolicy() } =
    typeof options === 'string' ? { name: options } : options;
  const iam = new IAMClient({
    region: connection.region,
    endpoint: connection.endpoint,
    credentials: adminCredentials(connection),
  });
  try {
    const { Role } = await iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: trustPolicy }));
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: name,
        PolicyName: 'upbeam-s3',
        PolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: ['s3:*'], Resource: ['arn:aws:s3:::*'] }],
        }),
      }),
    );
    if (!Role?.Arn) throw new Error(`radosgw's CreateRole answered no ARN for role ${name}`);
    return Role.Arn;
  } finally {
    iam.destroy();
  }
}

function adminCredentials({ accessKeyId, secretAccessKey }: RadosgwConnection) {
  return { accessKeyId, secretAccessKey };
}

/** A port on 127.0.0.1 that is free, with the next one free too (radosgw on it, the monitor on +1). */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const first = await listen(0);
    const port = (first.address() as AddressInfo).port;
    const second = port < 65535 ? await listen(port + 1).catch(() => undefined) : undefined;
    await Promise.all([first, second].map((server) => server && new Promise((done) => server.close(done))));
    if (second) return port;
  }
  throw new Error('found no two free consecutive ports on 127.0.0.1');
}

function listen(port: number) {
  return new Promise<ReturnType<typeof createServer>>((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The radosgw that `tools/ceph-rgw/src/global-setup.ts` started for this run; `null` outside CI
     * when radosgw is not installed (the radosgw suites are then skipped; in CI the run fails).
     */
    radosgw: RadosgwConnection | null;
  }
}
