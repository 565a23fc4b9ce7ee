import type { S3Client } from '@aws-sdk/client-s3';
import type { ResolvedStorageSettings } from '../settings';

/** Outcome of one doctor check. */
export type FindingStatus = 'ok' | 'warn' | 'fail' | 'skipped';

/** What one check found, and how to fix it. */
export interface Finding {
  /** Which check: `bucket`, `clock`, `cors`, `lifecycle`, `temporary-token`, `presigned-headers`, `sts-roles`, `object-lock`, `checksum`, `conditional-writes`, `post-object`. */
  check: string;
  status: FindingStatus;
  /** One or two sentences for a person. */
  message: string;
  /**
   * The configuration to apply, as JSON, with where it goes in `apply` (e.g. the AWS CLI command). For
   * `cors` a full `CORSConfiguration`, for `lifecycle` a full `LifecycleConfiguration` (existing rules kept).
   */
  fix?: { apply: string; json?: unknown };
}

/** Raw response headers of the storage calls a check made, keyed by lower-case name. */
export type SeenHeaders = Record<string, string>;

/** What every check gets. */
export interface CheckContext {
  settings: ResolvedStorageSettings;
  /** The server's S3 client (its own credentials). */
  s3: S3Client;
  /** Headers of the last storage answer (HeadBucket first), for the region and `Date`. */
  lastHeaders(): SeenHeaders;
}

/** The HTTP status of an AWS SDK error, if it has one. */
export function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

/** The S3 error name (`NoSuchBucket`, `AccessDenied`, ...) of an AWS SDK error. */
export function errorName(error: unknown): string {
  return (error as { name?: string; Code?: string })?.Code ?? (error as Error)?.name ?? 'Error';
}
