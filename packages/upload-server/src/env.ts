/**
 * The environment the settings fall back to: the one table of `S3_UPLOAD_*` variables and how a value is
 * read. Both `settings.ts` and `providers.ts` read it, so neither imports the other's values.
 */

/**
 * Environment variable each setting falls back to: the one table of them (storage settings, the provider
 * preset's `provider` and `accountId`, and the temporary-token strategy's `roleArn` and `stsEndpoint`).
 */
export const SETTING_ENV = {
  accessKeyId: 'S3_UPLOAD_KEY',
  secretAccessKey: 'S3_UPLOAD_SECRET',
  bucket: 'S3_UPLOAD_BUCKET',
  region: 'S3_UPLOAD_REGION',
  endpoint: 'S3_UPLOAD_ENDPOINT',
  forcePathStyle: 'S3_UPLOAD_FORCE_PATH_STYLE',
  sseCustomerKey: 'S3_UPLOAD_SSE_CUSTOMER_KEY',
  objectAcl: 'S3_UPLOAD_OBJECT_ACL',
  checksum: 'S3_UPLOAD_CHECKSUM',
  conditionalWrites: 'S3_UPLOAD_CONDITIONAL_WRITES',
  provider: 'S3_UPLOAD_PROVIDER',
  accountId: 'S3_UPLOAD_ACCOUNT_ID',
  roleArn: 'S3_UPLOAD_ROLE_ARN',
  stsEndpoint: 'S3_UPLOAD_STS_ENDPOINT',
} as const;

/** Environment variables, as `process.env` holds them. */
export type Env = Record<string, string | undefined>;

/** `process.env`, or an empty object where there is none. */
export function processEnv(): Env {
  // `process` is absent in some Fetch runtimes (workers, Deno without compat): settings then come from config.
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

/** A value counts as set only if it is a non-blank string: an unset variable is never the string "undefined". */
export function present(value: string | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
