/**
 * @module
 * `@upbeam/upload-server/doctor`: checks the upload settings against the real bucket (credentials, region,
 * CORS, lifecycle, clock, the temporary-token strategy) and says how to fix each problem.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { compileApp } from '../app';
import type { UploadHandlerConfig } from '../config';
import { DEFAULT_KEY_PREFIX } from '../object-key';
import { resolveProvider } from '../providers';
import { present, resolveStsSettings, type Env } from '../settings';
import { checkBucket } from './bucket';
import { checkChecksums, checkConditionalWrites } from './checksum';
import { checkClock } from './clock';
import { checkCors } from './cors';
import type { CheckContext, Finding, SeenHeaders } from './finding';
import { checkLifecycle } from './lifecycle';
import { checkObjectLock } from './object-lock';
import { checkPostObject } from './post-object';
import { checkPresignedHeaders } from './presigned-headers';
import { checkStsRoles } from './sts-roles';
import { checkTemporaryToken } from './temporary-token';
import { createTokenIssuer } from '../temporary-token';
import { providerStsEndpoint } from '../providers';

export type { Finding, FindingStatus } from './finding';
export { formatFindings } from './format';
export { unsignedHeaderBucketPolicy } from './presigned-headers';

/** What to check beyond the handler's own settings. */
export interface DoctorOptions {
  /** Origin of the app's pages, e.g. `https://app.example.com`, for the CORS check. Env: `S3_UPLOAD_ORIGIN`. Without it, CORS is skipped. */
  origin?: string;
  /**
   * Check the temporary-token strategy (STS call and a probe upload: writes and deletes two 1-byte objects
   * under `keyPrefix`). @default true when a role ARN is configured (`roleArn`, `S3_UPLOAD_ROLE_ARN`)
   */
  temporaryToken?: boolean;
  /** Where settings fall back to. @default process.env */
  env?: Env;
}

/**
 * Runs every check against the real bucket with the handler's settings (the same `S3_UPLOAD_*` fallback)
 * and returns one finding per check, in order: `bucket`, `clock`, `cors`, `lifecycle`, `temporary-token`,
 * `presigned-headers` (does storage refuse a presigned PUT with an added `x-amz-copy-source`?), `sts-roles`
 * (can an upload token assume any role the server can list? with `roleArn` and an STS endpoint), `object-lock`
 * (on a bucket with object lock, can an upload token make its object undeletable?), `checksum` (does storage
 * refuse a PUT whose checksum does not match, for each algorithm? is the `checksum` setting one it verifies?),
 * `conditional-writes` (does storage answer 412 to a PutObject and a CompleteMultipartUpload with
 * `If-None-Match: *` on a key that holds an object?), `post-object` (does storage take a presigned POST and refuse a
 * file outside its policy's size range? skipped for a provider without POST Object).
 * Never throws for a storage answer: a wrong setting is a `fail` finding. When the bucket check fails the
 * others are `skipped`. Takes one HeadBucket, GetBucketCors and GetBucketLifecycleConfiguration; a small
 * PutObject, two presigned PUTs and a DeleteObject, plus a HEAD and a DeleteObject for each PUT storage took
 * (presigned-headers); plus (token check) one STS call and two 1-byte PutObject/DeleteObject, and (roles) one IAM ListRoles page per 100 roles, one STS call
 * and one AssumeRole per role; one GetObjectLockConfiguration, and on a bucket with object lock (token check)
 * one STS call and a PutObject with a legal hold (removed when storage took it); 8 small PUTs and up to 4 DELETEs
 * (checksum); 2 PUTs, a one-part multipart upload (create, part, complete, abort) and a DELETE (conditional writes);
 * 2 POSTs of at most 5 bytes, a HEAD and up to 2 DELETEs (post-object).
 *
 * @example
 * const findings = await diagnoseUploadConfig({ ...handlerConfig, origin: 'https://app.example.com' });
 * if (findings.some((finding) => finding.status === 'fail')) console.error(formatFindings(findings));
 * @throws `UploadError` `MISSING_SETTINGS` / `INVALID_SETTINGS` as `createUploadHandler` would.
 */
export async function diagnoseUploadConfig(config: UploadHandlerConfig & DoctorOptions = {}): Promise<Finding[]> {
  // The app of the handler's shared settings (its routes, if given, are not what the doctor checks).
  const app = compileApp({ ...config, routes: undefined });
  const env = app.env();
  const settings = app.settings();
  const s3 = await app.client();
  let headers: SeenHeaders = {};
  recordHeaders(s3, (seen) => (headers = seen));
  const context: CheckContext = { settings, s3, lastHeaders: () => headers };
  try {
    const bucket = await checkBucket(context);
    const clock = checkClock(context);
    const sts = resolveStsSettings(config, env);
    const { roleArn } = sts;
    const wantsToken = config.temporaryToken ?? roleArn !== undefined;
    if (bucket.status === 'fail') {
      const skipped = (check: string): Finding => ({ check, status: 'skipped', message: 'Skipped: the bucket is not reachable.' });
      const rest = ['cors', 'lifecycle', 'temporary-token', 'presigned-headers', 'sts-roles', 'object-lock', 'checksum', 'conditional-writes', 'post-object'];
      return [bucket, clock, ...rest.map(skipped)];
    }
    const keyPrefix = config.keyPrefix ?? DEFAULT_KEY_PREFIX;
    const origin = present(config.origin) ?? present(env.S3_UPLOAD_ORIGIN);
    const cors = await checkCors(context, origin);
    const lifecycle = await checkLifecycle(context, keyPrefix);
    const provider = resolveProvider(config, env);
    const tokenSettings = { ...config, roleArn, stsEndpoint: sts.stsEndpoint };
    const token: Finding = wantsToken
      ? await checkTemporaryToken(context, { provider, token: tokenSettings, keyPrefix, sts: (stsEndpoint) => app.services.sts(settings, stsEndpoint) })
      : { check: 'temporary-token', status: 'skipped', message: 'Not checked: no role ARN configured (pass --temporary-token to check GetFederationToken).' };
    const presignedHeaders = await checkPresignedHeaders(context, keyPrefix);
    const stsEndpoint = wantsToken && token.status !== 'fail' ? providerStsEndpoint(provider, tokenSettings, settings.endpoint) : undefined;
    const stsRoles: Finding =
      stsEndpoint !== undefined && roleArn !== undefined
        ? await checkStsRoles(context, {
            stsEndpoint,
            // The issuer's own check of other roles is left out: this check reports them, by name.
            token: () =>
              createTokenIssuer(settings, { ...tokenSettings, stsEndpoint }, { otherRoles: false }, app.services.sts(settings, stsEndpoint))(
                `${keyPrefix}upbeam-doctor-roles`,
              ),
          })
        : {
            check: 'sts-roles',
            status: 'skipped',
            message: 'Not checked: only an S3-compatible STS (roleArn with an STS endpoint) lets an upload token assume roles.',
          };
    const objectLock = await checkObjectLock(context, {
      keyPrefix,
      // `stsEndpoint` is the provider's (`providerStsEndpoint`) whenever a token is wanted and its check passed.
      token: wantsToken && token.status !== 'fail' ? createTokenIssuer(settings, { ...tokenSettings, stsEndpoint }, {}, app.services.sts(settings, stsEndpoint)) : undefined,
    });
    const checksum = await checkChecksums(context, keyPrefix);
    const conditionalWrites = await checkConditionalWrites(context, keyPrefix);
    const postObject = await checkPostObject(context, keyPrefix, provider);
    return [bucket, clock, cors, lifecycle, token, presignedHeaders, stsRoles, objectLock, checksum, conditionalWrites, postObject];
  } finally {
    app.destroy();
  }
}

/** Keeps the raw headers of each storage answer, error answers included (before the SDK parses them). */
function recordHeaders(s3: S3Client, record: (headers: SeenHeaders) => void): void {
  // A deserialize-step middleware placed after the SDK's deserializer: it sees the raw HTTP response.
  // Typed by hand: the SDK's middleware types live in @smithy/types, not a dependency of this package.
  type Next = (args: unknown) => Promise<{ response: unknown }>;
  const middleware = (next: Next) => async (args: unknown) => {
    const result = await next(args);
    const response = result.response as { headers?: Record<string, string> };
    const headers: SeenHeaders = {};
    for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = value;
    record(headers);
    return result;
  };
  s3.middlewareStack.addRelativeTo(middleware as never, { relation: 'after', toMiddleware: 'deserializerMiddleware', name: 'upbeamDoctorHeaders' },
  );
}
