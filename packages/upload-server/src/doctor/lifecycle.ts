import { GetBucketLifecycleConfigurationCommand, type LifecycleRule } from '@aws-sdk/client-s3';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

/** Days after which the suggested rule aborts an incomplete multipart upload (its parts are billed until then). */
export const ABORT_INCOMPLETE_AFTER_DAYS = 1;

/** The prefix a lifecycle rule applies to (`Filter.Prefix`, `Filter.And.Prefix`, or the legacy `Prefix`). */
function rulePrefix(rule: LifecycleRule): string | undefined {
  if (rule.Filter?.Tag || rule.Filter?.And?.Tags?.length) return undefined; // tag-filtered: never covers untagged uploads
  return rule.Filter?.Prefix ?? rule.Filter?.And?.Prefix ?? rule.Prefix ?? '';
}

/** An enabled rule with `AbortIncompleteMultipartUpload` whose prefix covers `keyPrefix`. */
export function abortRuleFor(rules: LifecycleRule[], keyPrefix: string): LifecycleRule | undefined {
  return rules.find((rule) => {
    const prefix = rulePrefix(rule);
    return rule.Status === 'Enabled' && rule.AbortIncompleteMultipartUpload?.DaysAfterInitiation !== undefined && prefix !== undefined && keyPrefix.startsWith(prefix);
  });
}

/**
 * Pure part of the lifecycle check. A browser closed mid-upload cannot abort its multipart upload; only a
 * lifecycle rule removes those parts, which are billed until then. Missing: `warn` (uploads work, money leaks).
 */
export function judgeLifecycle(rules: LifecycleRule[], keyPrefix: string, bucket: string): Finding {
  const rule = abortRuleFor(rules, keyPrefix);
  if (rule !== undefined) {
    return {
      check: 'lifecycle',
      status: 'ok',
      message: `Lifecycle rule "${rule.ID ?? '(no ID)'}" aborts incomplete multipart uploads after ${rule.AbortIncompleteMultipartUpload?.DaysAfterInitiation} day(s).`,
    };
  }
  const added: LifecycleRule = {
    ID: 'upbeam-abort-incomplete-multipart-uploads',
    Status: 'Enabled',
    Filter: { Prefix: keyPrefix },
    AbortIncompleteMultipartUpload: { DaysAfterInitiation: ABORT_INCOMPLETE_AFTER_DAYS },
  };
  return {
    check: 'lifecycle',
    status: 'warn',
    message: `No lifecycle rule aborts incomplete multipart uploads under "${keyPrefix}": the parts of uploads abandoned mid-way stay billed forever.`,
    fix: {
      apply: `aws s3api put-bucket-lifecycle-configuration --bucket ${bucket} --lifecycle-configuration file://lifecycle.json (or PutBucketLifecycleConfiguration; it replaces all rules, existing ones are kept below), with lifecycle.json:`,
      json: { Rules: [...rules, added] },
    },
  };
}

/** GetBucketLifecycleConfiguration, judged for the handler's key prefix ({@link judgeLifecycle}). */
export async function checkLifecycle({ s3, settings }: CheckContext, keyPrefix: string): Promise<Finding> {
  let rules: LifecycleRule[];
  try {
    rules = (await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: settings.bucket }))).Rules ?? [];
  } catch (error) {
    if (errorName(error) !== 'NoSuchLifecycleConfiguration' && httpStatus(error) !== 404) {
      return {
        check: 'lifecycle',
        status: 'warn',
        message: `GetBucketLifecycleConfiguration answered ${httpStatus(error) ?? ''} ${errorName(error)}: the lifecycle rules could not be read (the credentials may lack s3:GetLifecycleConfiguration).`,
      };
    }
    rules = [];
  }
  return judgeLifecycle(rules, keyPrefix, settings.bucket);
}
