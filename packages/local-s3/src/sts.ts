/// <reference path="./s3rver.d.ts" />
/**
 * A stand-in for STS on the storage server's own port, so that an upload handler reaches it through
 * `S3_UPLOAD_STS_ENDPOINT` exactly as it reaches a real STS: it answers the two calls of the temporary-token
 * strategy, `GetFederationToken` and `AssumeRole` (AWS Query protocol: a SigV4-signed form POST to `/`, an
 * XML answer), with a fresh key pair that s3rver accepts until `DurationSeconds` have passed.
 *
 * It checks the request's SigV4 signature with the server's long-term key pair and refuses temporary
 * credentials (as AWS refuses GetFederationToken to them). The session `Policy` is parsed (400
 * MalformedPolicyDocument when it is not a policy) and recorded with the credentials: every request made with
 * them must pass it (session-access.ts). Without a `Policy`, a federation token may do nothing (as on AWS) and
 * an assumed role's session has the server's full access (the role here is the server itself).
 */
import { createHash, createHmac, type BinaryLike } from 'node:crypto';
import type { S3rverContext, S3rverMiddleware } from '@20minutes/s3rver';
import { SignatureV4 } from '@smithy/signature-v4';
import { issueLocalCredentials, isTemporaryKey, secretOf, type LocalCredentials, type Session } from './credentials';
import { MalformedPolicyError, parsePolicy } from './session-policy';

const NAMESPACE = 'https://sts.amazonaws.com/doc/2011-06-15/';
/** STS requests are a few KiB: a session policy is at most 2048 characters. */
const MAX_REQUEST_BYTES = 64 * 1024;

/** DurationSeconds each action accepts, and its default (AWS STS API reference). */
const DURATIONS = {
  GetFederationToken: { min: 900, max: 129_600, default: 43_200 },
  AssumeRole: { min: 900, max: 43_200, default: 3600 },
} as const;
export type StsAction = keyof typeof DURATIONS;

class StsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    // As the AWS SDK names an STS error from its code (for the in-process client of index.ts).
    this.name = code;
  }
}

/** The middleware answering `POST /` with `Action=GetFederationToken|AssumeRole`; everything else goes on. */
export function stsStandIn(): S3rverMiddleware {
  return async function sts(ctx, next) {
    if (ctx.method !== 'POST' || ctx.path !== '/') return next();
    try {
      const body = await readBody(ctx);
      const form = new URLSearchParams(body);
      const action = form.get('Action');
      if (action !== 'GetFederationToken' && action !== 'AssumeRole') {
        throw new StsError(400, 'InvalidAction', 'The local STS stand-in answers GetFederationToken and AssumeRole only.');
      }
      await verifySignature(ctx, body);
      const credentials = issueLocalCredentials(durationOf(action, form.get('DurationSeconds')), sessionOf(action, form.get('Policy') ?? undefined));
      answer(ctx, 200, tokenXml(action, credentials));
    } catch (error) {
      if (!(error instanceof StsError)) throw error;
      answer(ctx, error.status, errorXml(error));
    }
  };
}

/**
 * The session of credentials issued by `action` with the session policy `policy` (JSON text), as AWS grants
 * it: see the module comment.
 * @throws an error named `MalformedPolicyDocument` (STS's code) when `policy` is not a policy document.
 */
export function sessionOf(action: StsAction, policy: string | undefined): Pick<Session, 'policy' | 'principalType'> {
  const principalType = action === 'AssumeRole' ? 'AssumedRole' : 'FederatedUser';
  if (policy === undefined) return { principalType, policy: action === 'AssumeRole' ? undefined : { statements: [] } };
  try {
    return { principalType, policy: parsePolicy(policy) };
  } catch (error) {
    if (!(error instanceof MalformedPolicyError)) throw error;
    throw new StsError(400, 'MalformedPolicyDocument', `The session policy is not a valid IAM policy: ${error.message}`);
  }
}

function durationOf(action: StsAction, value: string | null): number {
  const range = DURATIONS[action];
  if (value === null) return range.default;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < range.min || seconds > range.max) {
    throw new StsError(
      400,
      'ValidationError',
      `DurationSeconds must be a whole number from ${range.min} to ${range.max} for ${action}; got "${value}".`,
    );
  }
  return seconds;
}

function readBody(ctx: S3rverContext): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    ctx.req.setEncoding('utf8');
    ctx.req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_REQUEST_BYTES) {
        ctx.req.destroy();
        reject(new StsError(413, 'RequestEntityTooLarge', `An STS request is at most ${MAX_REQUEST_BYTES} bytes.`));
      }
    });
    ctx.req.on('end', () => resolve(text));
    ctx.req.on('error', reject);
  });
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

function binary(data: SourceData): BinaryLike {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

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

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/sts\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** Signs the request again with the key pair it names and compares the signatures. */
async function verifySignature(ctx: S3rverContext, body: string): Promise<void> {
  const match = AUTHORIZATION.exec(ctx.get('authorization'));
  if (!match) throw new StsError(403, 'MissingAuthenticationToken', 'The request must be signed with AWS Signature Version 4 for the sts service.');
  const [, accessKeyId, , region, signedHeaderList, signature] = match as unknown as [string, string, string, string, string, string];
  const secretAccessKey = secretOf(accessKeyId);
  if (secretAccessKey === undefined) throw new StsError(403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
  if (isTemporaryKey(accessKeyId)) {
    throw new StsError(403, 'AccessDenied', 'Temporary credentials cannot request more temporary credentials: sign with the server\'s own key pair.');
  }
  const signedHeaders = signedHeaderList.split(';');
  const headers = Object.fromEntries(signedHeaders.map((name) => [name, ctx.get(name)]));
  const amzDate = ctx.get('x-amz-date');
  const signingDate = new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (Number.isNaN(signingDate.getTime())) throw new StsError(400, 'IncompleteSignature', 'The request has no valid x-amz-date header.');
  const signer = new SignatureV4({ credentials: { accessKeyId, secretAccessKey }, region, service: 'sts', sha256: Sha256 });
  const signed = await signer.sign(
    { method: 'POST', protocol: 'http:', hostname: 'localhost', path: '/', query: {}, headers, body },
    { signingDate, signableHeaders: new Set(signedHeaders) },
  );
  if (!String(signed.headers.authorization).endsWith(`Signature=${signature}`)) {
    throw new StsError(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  }
}

function answer(ctx: S3rverContext, status: number, xml: string): void {
  ctx.status = status;
  ctx.type = 'text/xml';
  ctx.body = xml;
}

function tokenXml(action: StsAction, c: LocalCredentials): string {
  return (
    `<${action}Response xmlns="${NAMESPACE}"><${action}Result><Credentials>` +
    `<AccessKeyId>${c.AccessKeyId}</AccessKeyId><SecretAccessKey>${c.SecretAccessKey}</SecretAccessKey>` +
    `<SessionToken>${c.SessionToken}</SessionToken><Expiration>${c.Expiration.toISOString()}</Expiration>` +
    `</Credentials></${action}Result><ResponseMetadata><RequestId>local</RequestId></ResponseMetadata></${action}Response>`
  );
}

function errorXml(error: StsError): string {
  const type = error.status < 500 ? 'Sender' : 'Receiver';
  return (
    `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>${type}</Type><Code>${error.code}</Code>` +
    `<Message>${error.message}</Message></Error><RequestId>local</RequestId></ErrorResponse>`
  );
}
