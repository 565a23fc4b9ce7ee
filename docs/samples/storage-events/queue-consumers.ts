// queue-consumers.ts: the same completion from AWS's and Cloudflare's queues (not run against AWS or R2 here).
import { completeNotifiedUploads, type NotifiedUploads } from '@upbeam/upload-server';
import { routes } from '../routes/app/api/s3-upload/upload-routes';

// Storage settings from the environment (S3_UPLOAD_*), as the handler reads them.
const uploadConfig = { routes };

/** Whether to deliver the message again: an object failed, or its hook is still running elsewhere. */
const unfinished = ({ objects }: NotifiedUploads) =>
  objects.some(({ outcome, code }) => outcome === 'failed' || code === 'COMPLETION_IN_PROGRESS');

/** One created object as the record `completeNotifiedUploads` reads (AWS's form: the key URL-encoded). */
const record = (bucket: string, key: string, size: number, eventTime: string) => ({
  eventSource: 'aws:s3',
  eventName: 'ObjectCreated:Put',
  eventTime,
  s3: { bucket: { name: bucket }, object: { key: encodeURIComponent(key), size } },
});

// S3 -> SQS -> Lambda: each message's body is the notification (`{ Records }`, or an SNS envelope holding it, when
// the queue is subscribed to an SNS topic without raw delivery). Report the failed ones (the function's
// ReportBatchItemFailures setting): SQS delivers them again, and its redrive policy (maxReceiveCount) dead-letters them.
export async function sqsHandler(event: { Records: { messageId: string; body: string }[] }) {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const message of event.Records) {
    try {
      if (unfinished(await completeNotifiedUploads(uploadConfig, JSON.parse(message.body)))) batchItemFailures.push({ itemIdentifier: message.messageId });
    } catch {
      // Not a notification (400 INVALID_REQUEST): let the redrive policy dead-letter it.
      batchItemFailures.push({ itemIdentifier: message.messageId });
    }
  }
  return { batchItemFailures };
}

// S3 -> EventBridge -> Lambda (a rule on source aws.s3, detail-type "Object Created"): the event is one object, in
// EventBridge's own shape, its key not URL-encoded. A thrown error makes Lambda's asynchronous invocation retry it
// (twice, then its on-failure destination or dead-letter queue).
export async function eventBridgeHandler(event: { time: string; detail: { bucket: { name: string }; object: { key: string; size?: number } } }) {
  const { bucket, object } = event.detail;
  const result = await completeNotifiedUploads(uploadConfig, { Records: [record(bucket.name, object.key, object.size ?? 0, event.time)] });
  if (unfinished(result)) throw new Error(`not completed yet: ${object.key}`);
}

// R2 -> Queues -> a consumer Worker: each message's body is R2's event notification (`action` PutObject,
// CompleteMultipartUpload or CopyObject). `retry()` delivers it again; past the queue's max_retries it goes to the
// dead-letter queue configured in wrangler.toml.
interface R2Notification {
  action: string;
  bucket: string;
  object: { key: string; size?: number };
  eventTime: string;
}
export default {
  async queue(batch: { messages: { body: R2Notification; ack(): void; retry(): void }[] }) {
    for (const message of batch.messages) {
      const { action, bucket, object, eventTime } = message.body;
      if (!['PutObject', 'CompleteMultipartUpload', 'CopyObject'].includes(action)) {
        message.ack();
        continue;
      }
      const result = await completeNotifiedUploads(uploadConfig, { Records: [record(bucket, object.key, object.size ?? 0, eventTime)] });
      if (unfinished(result)) message.retry();
      else message.ack();
    }
  },
};
