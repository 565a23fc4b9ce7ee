/// <reference path="./s3rver.d.ts" />
/**
 * The session policy of the STS stand-in's credentials, enforced on every request signed with them, as S3
 * does: the request is named as IAM names it (its action, its resource ARN, its condition keys) and
 * evaluated against the `Policy` the credentials were issued with (session-policy.ts); a request outside it
 * answers 403 AccessDenied, S3's XML error. A request with temporary credentials must carry their session
 * token (`x-amz-security-token`), as S3 requires. The server's own key pair keeps full access.
 *
 * A browser form POST (`POST /{bucket}`, its credentials in the form) is checked by post-object.ts through
 * {@link checkFormSession}. Not covered: a multi-object delete (`POST /{bucket}?delete`) needs `s3:DeleteObject` on every key of the
 * bucket (`arn:aws:s3:::{bucket}/*`), where S3 checks each key; a request kind this does not know is refused.
 */
import type { S3rverContext, S3rverMiddleware } from '@20minutes/s3rver';
import { sessionOf, type Session } from './credentials';
import { requestTarget } from './request-target';
import { cors, S3Error } from './s3rver-internals';
import { isAllowed, type PolicyRequest } from './session-policy';

/** A request's `x-amz-*` value: its header, or the query parameter of that name (any case) of a presigned URL. */
function amzValue(ctx: S3rverContext, name: string): string | undefined {
  const header = ctx.headers[name];
  if (typeof header === 'string') return header;
  const entry = Object.entries(ctx.query).find(([param]) => param.toLowerCase() === name);
  return typeof entry?.[1] === 'string' ? entry[1] : undefined;
}

/** The access key id a request is signed with (SigV4 or SigV2, header or query) and its signing region. */
function signer(ctx: S3rverContext): { accessKeyId: string; region: string; query: boolean } | undefined {
  const authorization = ctx.get('authorization');
  const v4 = /Credential=([^/,\s]+)\/\d{8}\/([^/]+)\//.exec(authorization);
  if (v4) return { accessKeyId: v4[1]!, region: v4[2]!, query: false };
  const v2 = /^AWS ([^:\s]+):/.exec(authorization);
  if (v2) return { accessKeyId: v2[1]!, region: 'us-east-1', query: false };
  const credential = ctx.query['X-Amz-Credential'];
  if (typeof credential === 'string') {
    const [accessKeyId = '', , region = 'us-east-1'] = credential.split('/');
    return { accessKeyId, region, query: true };
  }
  const v2Query = ctx.query.AWSAccessKeyId;
  return typeof v2Query === 'string' ? { accessKeyId: v2Query, region: 'us-east-1', query: true } : undefined;
}

/** The ARN partition of a region, as upload handlers build their policy's resource (`aws-cn`, `aws-us-gov`, `aws`). */
function partition(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

/** Headers whose condition keys are `s3:{header}` (IAM's names), and the object-lock ones, renamed. */
const OBJECT_LOCK_KEYS: Record<string, string> = {
  'x-amz-object-lock-mode': 's3:object-lock-mode',
  'x-amz-object-lock-retain-until-date': 's3:object-lock-retain-until-date',
  'x-amz-object-lock-legal-hold': 's3:object-lock-legal-hold',
};
/** Signature parameters: not condition keys. */
const SIGNATURE_HEADERS = new Set(['x-amz-date', 'x-amz-security-token', 'x-amz-algorithm', 'x-amz-credential', 'x-amz-signature', 'x-amz-signedheaders', 'x-amz-expires']);
const DAY_MS = 86_400_000;

/** The condition keys of a request (lower-case names) with their values. */
function conditionKeys(ctx: S3rverContext, session: Session, query: boolean): Map<string, string[]> {
  const context = new Map<string, string[]>();
  const set = (key: string, value: string | undefined) => value !== undefined && context.set(key.toLowerCase(), [value]);
  const amzNames = new Set([...Object.keys(ctx.headers), ...Object.keys(ctx.query).map((name) => name.toLowerCase())]);
  for (const name of amzNames) {
    if (!name.startsWith('x-amz-') || SIGNATURE_HEADERS.has(name)) continue;
    set(OBJECT_LOCK_KEYS[name] ?? `s3:${name}`, amzValue(ctx, name));
  }
  const retainUntil = Date.parse(amzValue(ctx, 'x-amz-object-lock-retain-until-date') ?? '');
  if (!Number.isNaN(retainUntil)) set('s3:object-lock-remaining-retention-days', String(Math.ceil((retainUntil - Date.now()) / DAY_MS)));
  const tagging = amzValue(ctx, 'x-amz-tagging');
  if (tagging !== undefined) {
    const tags = new URLSearchParams(tagging);
    for (const [tag, value] of tags) set(`s3:RequestObjectTag/${tag}`, value);
    context.set('s3:requestobjecttagkeys', [...tags.keys()]);
  }
  for (const name of ['prefix', 'delimiter', 'max-keys', 'versionId']) {
    const value = ctx.query[name];
    if (typeof value === 'string') set(`s3:${name}`, value);
  }
  set('s3:authType', query ? 'REST-QUERY-STRING' : 'REST-HEADER');
  set('s3:signatureversion', ctx.get('authorization').startsWith('AWS ') || 'AWSAccessKeyId' in ctx.query ? 'AWS' : 'AWS4-HMAC-SHA256');
  set('aws:SecureTransport', 'false');
  set('aws:CurrentTime', new Date().toISOString());
  set('aws:EpochTime', String(Math.floor(Date.now() / 1000)));
  set('aws:TokenIssueTime', session.issuedAt.toISOString());
  set('aws:PrincipalType', session.principalType);
  set('aws:UserAgent', ctx.get('user-agent') || undefined);
  return context;
}

const hasAny = (ctx: S3rverContext, names: readonly string[]) => names.some((name) => amzValue(ctx, name) !== undefined);
const ACL_HEADERS = ['x-amz-acl', 'x-amz-grant-read', 'x-amz-grant-write', 'x-amz-grant-read-acp', 'x-amz-grant-write-acp', 'x-amz-grant-full-control'];

/**
 * The IAM actions a request needs, each on its resource; undefined for a request kind not named here.
 * A PutObject (or CreateMultipartUpload) that sets an ACL, tags or object lock needs `s3:PutObjectAcl`,
 * `s3:PutObjectTagging`, `s3:PutObjectRetention` or `s3:PutObjectLegalHold` too, and a copy `s3:GetObject`
 * on its source, as on S3.
 */
function requiredActions(ctx: S3rverContext, arnPartition: string): { action: string; resource: string }[] | undefined {
  const target = requestTarget(ctx.path);
  const q = ctx.query;
  const has = (name: string) => name in q;
  const arn = (bucket: string, key?: string) => `arn:${arnPartition}:s3:::${bucket}${key === undefined ? '' : `/${key}`}`;
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  if (!target) return method === 'GET' ? [{ action: 's3:ListAllMyBuckets', resource: '*' }] : undefined;

  const on = (resource: string, ...actions: string[]) => actions.map((action) => ({ action, resource }));
  if (target.key === undefined) {
    const bucket = arn(target.bucket);
    const sub = ['uploads', 'versions', 'location', 'cors', 'acl', 'policy', 'website', 'versioning', 'tagging', 'lifecycle', 'object-lock', 'delete'].find(has);
    const actions: Record<string, Record<string, string>> = {
      GET: {
        '': 's3:ListBucket', uploads: 's3:ListBucketMultipartUploads', versions: 's3:ListBucketVersions', location: 's3:GetBucketLocation',
        cors: 's3:GetBucketCORS', acl: 's3:GetBucketAcl', policy: 's3:GetBucketPolicy', website: 's3:GetBucketWebsite',
        versioning: 's3:GetBucketVersioning', tagging: 's3:GetBucketTagging', lifecycle: 's3:GetLifecycleConfiguration',
        'object-lock': 's3:GetBucketObjectLockConfiguration',
      },
      PUT: {
        '': 's3:CreateBucket', cors: 's3:PutBucketCORS', acl: 's3:PutBucketAcl', policy: 's3:PutBucketPolicy', website: 's3:PutBucketWebsite',
        versioning: 's3:PutBucketVersioning', tagging: 's3:PutBucketTagging', lifecycle: 's3:PutLifecycleConfiguration',
        'object-lock': 's3:PutBucketObjectLockConfiguration',
      },
      DELETE: {
        '': 's3:DeleteBucket', cors: 's3:PutBucketCORS', policy: 's3:DeleteBucketPolicy', website: 's3:DeleteBucketWebsite',
        tagging: 's3:PutBucketTagging', lifecycle: 's3:PutLifecycleConfiguration',
      },
    };
    // DeleteObjects: S3 checks s3:DeleteObject on each key of the body, which is not read here: every key.
    if (method === 'POST' && sub === 'delete') return on(arn(target.bucket, '*'), 's3:DeleteObject');
    const action = actions[method]?.[sub ?? ''];
    return action === undefined ? undefined : on(bucket, action);
  }

  const object = arn(target.bucket, target.key);
  const copySource = amzValue(ctx, 'x-amz-copy-source');
  const source = copySource === undefined ? [] : on(arn(...copySourceOf(copySource)), 's3:GetObject');
  const version = has('versionId') ? 'Version' : '';
  const writes = () => [
    ...(hasAny(ctx, ACL_HEADERS) ? ['s3:PutObjectAcl'] : []),
    ...(hasAny(ctx, ['x-amz-tagging']) ? ['s3:PutObjectTagging'] : []),
    ...(hasAny(ctx, ['x-amz-object-lock-mode', 'x-amz-object-lock-retain-until-date']) ? ['s3:PutObjectRetention'] : []),
    ...(hasAny(ctx, ['x-amz-object-lock-legal-hold']) ? ['s3:PutObjectLegalHold'] : []),
  ];
  const sub = ['uploadId', 'uploads', 'tagging', 'acl', 'retention', 'legal-hold', 'attributes', 'restore', 'select'].find(has);
  switch (`${method} ${sub ?? ''}`) {
    case 'GET ':
      return on(object, `s3:GetObject${version}`);
    case 'GET uploadId':
      return on(object, 's3:ListMultipartUploadParts');
    case 'GET tagging':
      return on(object, `s3:GetObject${version}Tagging`);
    case 'GET acl':
      return on(object, `s3:GetObject${version}Acl`);
    case 'GET retention':
      return on(object, 's3:GetObjectRetention');
    case 'GET legal-hold':
      return on(object, 's3:GetObjectLegalHold');
    case 'GET attributes':
      return on(object, `s3:GetObject${version}Attributes`);
    case 'PUT ':
      return [...on(object, 's3:PutObject', ...writes()), ...source];
    case 'PUT uploadId':
      return [...on(object, 's3:PutObject'), ...source];
    case 'PUT tagging':
      return on(object, `s3:PutObject${version}Tagging`);
    case 'PUT acl':
      return on(object, `s3:PutObject${version}Acl`);
    case 'PUT retention':
      return on(object, 's3:PutObjectRetention');
    case 'PUT legal-hold':
      return on(object, 's3:PutObjectLegalHold');
    case 'POST uploads':
      return on(object, 's3:PutObject', ...writes());
    case 'POST uploadId':
      return on(object, 's3:PutObject');
    case 'POST restore':
      return on(object, 's3:RestoreObject');
    case 'POST select':
      return on(object, 's3:GetObject');
    case 'DELETE ':
      return on(object, `s3:DeleteObject${version}`);
    case 'DELETE uploadId':
      return on(object, 's3:AbortMultipartUpload');
    case 'DELETE tagging':
      return on(object, `s3:DeleteObject${version}Tagging`);
    default:
      return undefined;
  }
}

/** `{bucket}/{key}` of an `x-amz-copy-source` (`/` first or not, URL-encoded, `?versionId=` after). */
function copySourceOf(header: string): [string, string] {
  let text = header.replace(/\?versionId=.*$/, '');
  try {
    text = decodeURIComponent(text);
  } catch {
    // As sent.
  }
  const [bucket = '', ...key] = text.replace(/^\//, '').split('/');
  return [bucket, key.join('/')];
}

const setCorsHeaders = cors();

/** Throws S3's error with the bucket's CORS headers set, so that a page reads the refusal. */
async function refuse(ctx: S3rverContext, error: Error): Promise<never> {
  const target = requestTarget(ctx.path);
  if (target) {
    const params = ctx.params;
    ctx.params = { bucket: target.bucket };
    try {
      await setCorsHeaders(ctx, async () => {});
    } finally {
      ctx.params = params;
    }
  }
  throw error;
}

/**
 * The middleware: for a request signed with credentials of the STS stand-in, checks their session token
 * and their session policy (see the module comment); other requests go on as they are.
 */
export function sessionPolicies(): S3rverMiddleware {
  return async function sessionAccess(ctx, next) {
    if (ctx.method === 'OPTIONS') return next();
    const signedBy = signer(ctx);
    const session = signedBy && sessionOf(signedBy.accessKeyId);
    if (!session) return next();
    const token = amzValue(ctx, 'x-amz-security-token');
    if (token === undefined) {
      await refuse(ctx, new S3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: signedBy.accessKeyId }));
    }
    if (token !== session.sessionToken) await refuse(ctx, new S3Error('InvalidToken', 'The provided token is malformed or otherwise invalid.'));
    if (session.policy) {
      const context = conditionKeys(ctx, session, signedBy.query);
      const actions = requiredActions(ctx, partition(signedBy.region));
      const requests: PolicyRequest[] | undefined = actions?.map(({ action, resource }) => ({ action, resource, context }));
      if (!requests || !isAllowed(session.policy, requests)) await refuse(ctx, new S3Error('AccessDenied', 'Access Denied'));
    }
    return next();
  };
}

/**
 * For a browser form POST (POST Object) signed with credentials of the STS stand-in (`accessKeyId`): its
 * `x-amz-security-token` field must be their session token, and storing `key` (with the form's `acl` and
 * `tagging`, which need `s3:PutObjectAcl` and `s3:PutObjectTagging` too, as on S3) must pass their session
 * policy, its condition keys read from the form's `x-amz-*` fields (names lower-case in `fields`). Other
 * credentials pass untouched.
 *
 * @throws `InvalidAccessKeyId` (403) without the token, `InvalidToken` (400) with another one, `AccessDenied`
 *   (403) outside the session policy: S3's answers.
 */
export function checkFormSession(accessKeyId: string, region: string, bucket: string, key: string, fields: ReadonlyMap<string, string>): void {
  const session = sessionOf(accessKeyId);
  if (!session) return;
  const token = fields.get('x-amz-security-token');
  if (token === undefined) {
    throw new S3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: accessKeyId });
  }
  if (token !== session.sessionToken) throw new S3Error('InvalidToken', 'The provided token is malformed or otherwise invalid.');
  if (!session.policy) return;
  const context = new Map<string, string[]>();
  for (const [name, value] of fields) {
    if (name.startsWith('x-amz-') && !SIGNATURE_HEADERS.has(name)) context.set((OBJECT_LOCK_KEYS[name] ?? `s3:${name}`).toLowerCase(), [value]);
  }
  const acl = fields.get('acl');
  if (acl !== undefined) context.set('s3:x-amz-acl', [acl]);
  const tags = [...(fields.get('tagging') ?? '').matchAll(/<Tag>\s*<Key>([^<]*)<\/Key>\s*<Value>([^<]*)<\/Value>\s*<\/Tag>/g)];
  for (const [, tag, value] of tags) context.set(`s3:RequestObjectTag/${tag}`.toLowerCase(), [value!]);
  if (tags.length > 0) context.set('s3:requestobjecttagkeys', tags.map(([, tag]) => tag!));
  context.set('s3:authtype', ['POST']);
  context.set('s3:signatureversion', [fields.has('x-amz-algorithm') ? 'AWS4-HMAC-SHA256' : 'AWS']);
  context.set('aws:securetransport', ['false']);
  context.set('aws:currenttime', [new Date().toISOString()]);
  context.set('aws:epochtime', [String(Math.floor(Date.now() / 1000))]);
  context.set('aws:tokenissuetime', [session.issuedAt.toISOString()]);
  context.set('aws:principaltype', [session.principalType]);
  const resource = `arn:${partition(region)}:s3:::${bucket}/${key}`;
  const actions = ['s3:PutObject', ...(acl === undefined ? [] : ['s3:PutObjectAcl']), ...(fields.has('tagging') ? ['s3:PutObjectTagging'] : [])];
  if (!isAllowed(session.policy, actions.map((action) => ({ action, resource, context })))) throw new S3Error('AccessDenied', 'Access Denied');
}
