import { createHash, createHmac } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { GetFederationTokenCommand, STSClient } from '@aws-sdk/client-sts';
import { Upload } from '@aws-sdk/lib-storage';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../src/index';

// The attack of issue 42 hole 6, with the AWS SDK as the client: an upload token of the STS stand-in, issued
// for one key with the session policy an upload handler sends (upload-server's `uploadTokenPolicy`: PutObject
// and AbortMultipartUpload on the one object, Deny on public ACLs, grants and object-lock headers), wrote any
// key. S3 refuses everything outside the policy with 403 AccessDenied; so must the local server.

const MiB = 1024 * 1024;
let storage: LocalS3;
let admin: S3Client;

beforeAll(async () => {
  storage = await startLocalS3({ bucket: 'uploads' });
  admin = storage.createClient();
  await admin.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'private/secret.txt', Body: 'secret' }));
});
afterAll(async () => {
  admin?.destroy();
  await storage?.close();
});

type SourceData = string | ArrayBuffer | ArrayBufferView;
const binary = (data: SourceData) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** SHA-256 (and its HMAC) for `SignatureV4`, from node:crypto. */
class Sha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', binary(secret));
  }
  update(data: SourceData): void {
    this.hash.update(binary(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

const denyPutObject = (condition: object) => ({ Effect: 'Deny', Action: ['s3:PutObject'], Resource: ['*'], Condition: condition });

/** The session policy of upload-server's `uploadTokenPolicy` for `key` (its shape, as the handler sends it to STS). */
function uploadTokenPolicy(key: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      { Sid: 'UpbeamUploadOneObject', Effect: 'Allow', Action: ['s3:PutObject', 's3:AbortMultipartUpload'], Resource: [`arn:aws:s3:::uploads/${key}`] },
      denyPutObject({ StringEquals: { 's3:x-amz-acl': ['public-read', 'public-read-write', 'authenticated-read'] } }),
      ...['read', 'write', 'read-acp', 'write-acp', 'full-control'].map((grant) => denyPutObject({ StringLike: { [`s3:x-amz-grant-${grant}`]: '*' } })),
      ...['mode', 'retain-until-date', 'legal-hold'].map((lock) => denyPutObject({ StringLike: { [`s3:object-lock-${lock}`]: '*' } })),
    ],
  });
}

/** An S3 client signing with temporary credentials. */
function clientOf(c: { AccessKeyId?: string; SecretAccessKey?: string; SessionToken?: string }): S3Client {
  return new S3Client({
    ...storage.handlerSettings,
    credentials: { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The error name and HTTP status a call was refused with, or 'ok'. */
async function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'ok',
    (error: { name?: string; $metadata?: { httpStatusCode?: number } }) => `${error.$metadata?.httpStatusCode} ${error.name}`,
  );
}

const exists = (Key: string) => outcome(admin.send(new HeadObjectCommand({ Bucket: 'uploads', Key })));

/** A token for `key` from the stand-in over HTTP (GetFederationToken, as `S3_UPLOAD_STS_ENDPOINT`) or in process. */
async function tokenFor(key: string, via: 'http' | 'in-process') {
  const input = { Name: 'S3UploadWebToken', DurationSeconds: 900, Policy: uploadTokenPolicy(key) };
  if (via === 'in-process') return (await storage.stsClient.send(new GetFederationTokenCommand(input))).Credentials;
  const sts = new STSClient({ region: storage.region, endpoint: storage.env.S3_UPLOAD_STS_ENDPOINT, credentials: storage.handlerSettings });
  try {
    return (await sts.send(new GetFederationTokenCommand(input))).Credentials!;
  } finally {
    sts.destroy();
  }
}

describe.each(['http', 'in-process'] as const)('an upload token (STS stand-in, %s) does what its session policy allows, nothing else', (via) => {
  const key = `users/alice/${via}/photo.jpg`;
  let token: S3Client;
  beforeAll(async () => {
    token = clientOf(await tokenFor(key, via));
  });
  afterAll(() => token?.destroy());

  it('a PutObject to its key succeeds', async () => {
    expect(await outcome(token.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: 'mine', ContentType: 'image/jpeg' })))).toBe('ok');
    expect(await exists(key)).toBe('ok');
  });

  it('a PutObject to another key, GetObject, DeleteObject, ListObjectsV2 answer 403 AccessDenied', async () => {
    const other = `users/bob/${via}/photo.jpg`;
    expect(await outcome(token.send(new PutObjectCommand({ Bucket: 'uploads', Key: other, Body: 'not mine' })))).toBe('403 AccessDenied');
    expect(await exists(other)).toBe('404 NotFound');
    expect(await outcome(token.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'private/secret.txt' })))).toBe('403 AccessDenied');
    expect(await outcome(token.send(new GetObjectCommand({ Bucket: 'uploads', Key: key })))).toBe('403 AccessDenied');
    expect(await outcome(token.send(new DeleteObjectCommand({ Bucket: 'uploads', Key: 'private/secret.txt' })))).toBe('403 AccessDenied');
    expect(await exists('private/secret.txt')).toBe('ok');
    expect(await outcome(token.send(new ListObjectsV2Command({ Bucket: 'uploads' })))).toBe('403 AccessDenied');
  });

  it("lib-storage's Upload to another key is refused (single PUT and multipart); to its own key it completes", async () => {
    const other = `users/bob/${via}/big.bin`;
    const small = new Upload({ client: token, params: { Bucket: 'uploads', Key: other, Body: Buffer.alloc(1000, 1) } });
    expect(await outcome(small.done())).toBe('403 AccessDenied');
    const multipart = new Upload({ client: token, params: { Bucket: 'uploads', Key: other, Body: Buffer.alloc(6 * MiB, 1) }, partSize: 5 * MiB });
    expect(await outcome(multipart.done())).toBe('403 AccessDenied');
    expect(await exists(other)).toBe('404 NotFound');

    const own = new Upload({ client: token, params: { Bucket: 'uploads', Key: key, Body: Buffer.alloc(6 * MiB, 2) }, partSize: 5 * MiB });
    expect(await outcome(own.done())).toBe('ok');
    const head = await admin.send(new HeadObjectCommand({ Bucket: 'uploads', Key: key }));
    expect(head.ContentLength).toBe(6 * MiB);
  });

  it('its own key with a public ACL or an object-lock header is refused (the policy\'s Deny statements); an abort of its own upload is allowed', async () => {
    expect(await outcome(token.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: 'x', ACL: 'public-read' })))).toBe('403 AccessDenied');
    const locked = new PutObjectCommand({
      Bucket: 'uploads',
      Key: key,
      Body: 'x',
      ObjectLockMode: 'COMPLIANCE',
      ObjectLockRetainUntilDate: new Date(Date.now() + 86_400_000),
    });
    expect(await outcome(token.send(locked))).toBe('403 AccessDenied');
    expect(await outcome(token.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: 'x', ObjectLockLegalHoldStatus: 'ON' })))).toBe('403 AccessDenied');
    const { UploadId } = await token.send(new CreateMultipartUploadCommand({ Bucket: 'uploads', Key: key }));
    expect(await outcome(token.send(new AbortMultipartUploadCommand({ Bucket: 'uploads', Key: key, UploadId })))).toBe('ok');
  });

  it('a request without the session token, or with another, is refused', async () => {
    const c = await tokenFor(key, via);
    const noToken = clientOf({ ...c, SessionToken: undefined });
    const wrongToken = clientOf({ ...c, SessionToken: 'local-forged' });
    expect(await outcome(noToken.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: 'x' })))).toBe('403 InvalidAccessKeyId');
    expect(await outcome(wrongToken.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: 'x' })))).toBe('400 InvalidToken');
    noToken.destroy();
    wrongToken.destroy();
  });
});

describe('the refusal', () => {
  it("is S3's XML error, with the bucket's CORS headers so that a page can read it", async () => {
    const c = await tokenFor('users/alice/cors.txt', 'http');
    // A PUT to another key, signed with the token as a browser signs it (SigV4 headers, its session token).
    const { hostname, port } = new URL(storage.endpoint);
    const credentials = { accessKeyId: c!.AccessKeyId!, secretAccessKey: c!.SecretAccessKey!, sessionToken: c!.SessionToken! };
    const signer = new SignatureV4({ credentials, region: storage.region, service: 's3', sha256: Sha256 });
    const signed = await signer.sign({
      method: 'PUT',
      protocol: 'http:',
      hostname,
      port: Number(port),
      path: '/uploads/users/bob/cors.txt',
      headers: { host: `${hostname}:${port}`, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    });
    const response = await fetch(`${storage.endpoint}${signed.path}`, {
      method: 'PUT',
      body: 'x',
      headers: { ...(signed.headers as Record<string, string>), origin: 'http://127.0.0.1:5173' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toMatch(/<Error><Code>AccessDenied<\/Code><Message>Access Denied<\/Message>/);
  });
});

describe("the server's own credentials and the stand-in's other answers", () => {
  it("the server's key pair keeps full access", async () => {
    expect(await outcome(admin.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'any/where.txt', Body: 'x' })))).toBe('ok');
    expect(await outcome(admin.send(new ListObjectsV2Command({ Bucket: 'uploads' })))).toBe('ok');
    expect(await outcome(admin.send(new DeleteObjectCommand({ Bucket: 'uploads', Key: 'any/where.txt' })))).toBe('ok');
  });

  it('a federation token without a Policy may do nothing (as on AWS); a Policy that is not a policy is refused', async () => {
    const sts = new STSClient({ region: storage.region, endpoint: storage.env.S3_UPLOAD_STS_ENDPOINT, credentials: storage.handlerSettings });
    const bare = clientOf((await sts.send(new GetFederationTokenCommand({ Name: 'bare' }))).Credentials!);
    expect(await outcome(bare.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'bare.txt', Body: 'x' })))).toBe('403 AccessDenied');
    bare.destroy();
    expect(await outcome(sts.send(new GetFederationTokenCommand({ Name: 'bad', Policy: '{}' })))).toBe('400 MalformedPolicyDocumentException');
    sts.destroy();
    await expect(storage.stsClient.send(new GetFederationTokenCommand({ Name: 'bad', Policy: 'not json' }))).rejects.toMatchObject({
      name: 'MalformedPolicyDocument',
    });
  });
});
