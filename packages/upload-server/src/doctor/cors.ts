import { GetBucketCorsCommand, type CORSRule } from '@aws-sdk/client-s3';
import { CHECKSUM_HEADERS, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

/**
 * Methods a browser upload sends: PUT (presigned PUT, UploadPart), POST (Create/CompleteMultipartUpload),
 * DELETE (AbortMultipartUpload: without it a cancelled upload leaves its parts billed).
 */
export const REQUIRED_CORS_METHODS = ['PUT', 'POST', 'DELETE'] as const;
/** Response headers the browser must read: `ETag` (each part's, to complete a multipart upload) and `Retry-After` (the retry delay). */
export const REQUIRED_EXPOSE_HEADERS = ['ETag', 'Retry-After'] as const;

/** `AllowedOrigin` matches as S3 matches it: equal, `*`, or one `*` wildcard inside (`https://*.example.com`). */
export function originMatches(pattern: string, origin: string): boolean {
  if (pattern === '*' || pattern === origin) return true;
  const star = pattern.indexOf('*');
  if (star === -1) return false;
  const head = pattern.slice(0, star);
  const tail = pattern.slice(star + 1);
  return origin.length >= head.length + tail.length && origin.startsWith(head) && origin.endsWith(tail);
}

const lower = (values: string[] | undefined) => (values ?? []).map((value) => value.toLowerCase());

/** The rule storage applies to an upload PUT from `origin` (the first matching one), if any. */
export function ruleFor(rules: CORSRule[], origin: string): CORSRule | undefined {
  return rules.find(
    (rule) => (rule.AllowedOrigins ?? []).some((pattern) => originMatches(pattern, origin)) && lower(rule.AllowedMethods).includes('put'),
  );
}

/** The rule {@link ruleFor} found, completed with what an upload needs (its other settings kept). */
export function completedRule(rule: CORSRule | undefined, origin: string): CORSRule {
  const union = (have: string[] | undefined, need: readonly string[]) => [
    ...(have ?? []),
    ...need.filter((value) => !lower(have).includes(value.toLowerCase())),
  ];
  const { AllowedOrigins, AllowedMethods, AllowedHeaders, ExposeHeaders, MaxAgeSeconds, ...other } = rule ?? {};
  return {
    AllowedOrigins: AllowedOrigins ?? [origin],
    AllowedMethods: union(AllowedMethods, ['GET', 'HEAD', ...REQUIRED_CORS_METHODS]),
    AllowedHeaders: AllowedHeaders?.includes('*') ? AllowedHeaders : ['*'],
    ExposeHeaders: union(ExposeHeaders, REQUIRED_EXPOSE_HEADERS),
    MaxAgeSeconds: MaxAgeSeconds ?? 3000,
    ...other,
  };
}

/** What the handler asks of browsers that the CORS rule must allow. */
export interface CorsNeeds {
  /**
   * The handler's `checksum` setting: every PUT then carries the algorithm's request header (`Content-MD5`,
   * `x-amz-checksum-crc32c`, `x-amz-checksum-crc64nvme` or `x-amz-checksum-sha256`).
   */
  checksum?: ChecksumAlgorithm | undefined;
  /** The handler's `conditionalWrites` setting: every PUT then carries `If-None-Match`. */
  conditionalWrites?: boolean | undefined;
}

/**
 * Pure part of the CORS check: what the bucket's rules lack for uploads from `origin`.
 * Missing rule, method or `ETag` fail (multipart uploads cannot complete: the client's `MISSING_ETAG`), and
 * so does a rule whose `AllowedHeaders` admits neither `*` nor the checksum's header while checksums are on,
 * or neither `*` nor `If-None-Match` while conditional writes are on (every PUT fails its preflight); missing
 * `Retry-After` or request headers not `*` warn.
 */
export function judgeCors(rules: CORSRule[], origin: string, bucket: string, needs: CorsNeeds = {}): Finding {
  const rule = ruleFor(rules, origin);
  const problems: string[] = [];
  const warnings: string[] = [];
  if (rule === undefined) {
    problems.push(`no CORS rule allows PUT from ${origin}`);
  } else {
    const methods = lower(rule.AllowedMethods);
    const missingMethods = REQUIRED_CORS_METHODS.filter((method) => !methods.includes(method.toLowerCase()));
    if (missingMethods.length > 0) problems.push(`AllowedMethods lacks ${missingMethods.join(', ')}`);
    const exposed = lower(rule.ExposeHeaders);
    if (!exposed.includes('etag')) {
      problems.push('ExposeHeaders lacks ETag (the browser cannot read part ETags: multipart uploads fail with MISSING_ETAG)');
    }
    if (!exposed.includes('retry-after')) warnings.push("ExposeHeaders lacks Retry-After (retries cannot follow storage's delay)");
    const allowedHeaders = lower(rule.AllowedHeaders);
    const lacking = allowedHeaders.includes('*') ? [] : neededHeaders(needs).filter((name) => !allowedHeaders.includes(name.toLowerCase()));
    for (const name of lacking) {
      problems.push(
        name === 'If-None-Match'
          ? 'AllowedHeaders lacks If-None-Match (conditional writes are on: every PUT would fail its preflight; allow it or set conditionalWrites: false)'
          : `AllowedHeaders lacks ${name} (the checksum setting is on: every PUT would fail its preflight; allow it or set checksum: false)`,
      );
    }
    if (lacking.length === 0 && !allowedHeaders.includes('*')) {
      warnings.push('AllowedHeaders is not "*" (Content-Type, x-amz-* headers may be refused at preflight)');
    }
  }
  if (problems.length === 0 && warnings.length === 0) {
    return { check: 'cors', status: 'ok', message: `CORS rule allows ${origin} with PUT, POST, DELETE and exposes ETag and Retry-After.` };
  }
  const rest = rules.filter((other) => other !== rule);
  return {
    check: 'cors',
    status: problems.length > 0 ? 'fail' : 'warn',
    message: `CORS for ${origin}: ${[...problems, ...warnings].join('; ')}.`,
    fix: {
      apply: `aws s3api put-bucket-cors --bucket ${bucket} --cors-configuration file://cors.json (or PutBucketCors), with cors.json:`,
      json: { CORSRules: [completedRule(rule, origin), ...rest] },
    },
  };
}

/** The request headers browsers send that `needs` adds, as the docs spell them. */
function neededHeaders(needs: CorsNeeds): string[] {
  const names: string[] = [];
  if (needs.checksum === 'md5') names.push('Content-MD5');
  else if (needs.checksum !== undefined) names.push(CHECKSUM_HEADERS[needs.checksum]);
  if (needs.conditionalWrites === true) names.push('If-None-Match');
  return names;
}

/** GetBucketCors, judged for `origin` ({@link judgeCors}). Skipped without an origin. */
export async function checkCors({ s3, settings }: CheckContext, origin: string | undefined): Promise<Finding> {
  if (origin === undefined) {
    return { check: 'cors', status: 'skipped', message: "No origin given (--origin, S3_UPLOAD_ORIGIN): the app's page origin, e.g. https://app.example.com." };
  }
  let rules: CORSRule[];
  try {
    rules = (await s3.send(new GetBucketCorsCommand({ Bucket: settings.bucket }))).CORSRules ?? [];
  } catch (error) {
    if (errorName(error) !== 'NoSuchCORSConfiguration' && httpStatus(error) !== 404) {
      return { check: 'cors', status: 'warn', message: `GetBucketCors answered ${httpStatus(error) ?? ''} ${errorName(error)}: the CORS rule could not be read (the credentials may lack s3:GetBucketCORS).` };
    }
    rules = [];
  }
  return judgeCors(rules, origin, settings.bucket, { checksum: settings.checksum, conditionalWrites: settings.conditionalWrites });
}
