/**
 * Do radosgw's bucket notifications to an HTTP endpoint run here? (issue 23, item 3.)
 *
 *   pnpm --filter @upbeam/probes radosgw-notifications
 *
 * Starts a fresh radosgw (@upbeam/ceph-rgw, ~15 s) and an HTTP receiver on 127.0.0.1, creates a topic whose
 * `push-endpoint` is the receiver (radosgw's SNS-compatible CreateTopic, with @aws-sdk/client-sns), subscribes
 * a bucket's `s3:ObjectCreated:*` events to it (PutBucketNotificationConfiguration), stores an object with a
 * PutObject and one with a multipart upload, and waits up to 15 s for the receiver to be called. Prints each
 * step's answer (or error) and every request the receiver got, as JSON.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetBucketNotificationConfigurationCommand,
  PutBucketNotificationConfigurationCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { CreateTopicCommand, GetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { createBucket, radosgwS3Client, startRadosgw } from '@upbeam/ceph-rgw';

const WAIT_MS = 15_000;
/** The receiver answers after this long: a PutObject that takes as long waited for it. */
const RECEIVER_DELAY_MS = 1500;

interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Runs a step, keeping its answer or its error (name, HTTP status, message). */
async function step<T>(steps: Record<string, unknown>, name: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    const started = Date.now();
    const answer = await run();
    const { $metadata, ...rest } = (answer ?? {}) as { $metadata?: { httpStatusCode?: number } };
    steps[name] = { status: $metadata?.httpStatusCode, ms: Date.now() - started, ...rest };
    return answer;
  } catch (error) {
    const failure = error as Error & { $metadata?: { httpStatusCode?: number }; Code?: string };
    steps[name] = { error: failure.name, status: failure.$metadata?.httpStatusCode, message: failure.message };
    return undefined;
  }
}

async function main() {
  const received: Received[] = [];
  const receiver = createServer(async (request, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Kept as text.
    }
    received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    setTimeout(() => response.writeHead(200).end(), RECEIVER_DELAY_MS);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const pushEndpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/storage-events?secret=probe`;

  const radosgw = await startRadosgw();
  const s3 = radosgwS3Client(radosgw);
  const sns = new SNSClient({
    region: radosgw.region,
    endpoint: radosgw.endpoint,
    credentials: { accessKeyId: radosgw.accessKeyId, secretAccessKey: radosgw.secretAccessKey },
  });
  const steps: Record<string, unknown> = {};
  try {
    const Bucket = 'notified';
    await createBucket(radosgw, Bucket, { allowedOrigins: ['*'] });
    const topic = await step(steps, 'CreateTopic', () =>
      sns.send(new CreateTopicCommand({ Name: 'upbeam-uploads', Attributes: { 'push-endpoint': pushEndpoint, persistent: 'false' } })),
    );
    if (topic?.TopicArn) await step(steps, 'GetTopicAttributes', () => sns.send(new GetTopicAttributesCommand({ TopicArn: topic.TopicArn })));
    await step(steps, 'PutBucketNotificationConfiguration', () =>
      s3.send(
        new PutBucketNotificationConfigurationCommand({
          Bucket,
          NotificationConfiguration: {
            TopicConfigurations: [{ Id: 'uploads', TopicArn: topic?.TopicArn ?? 'arn:aws:sns:default::upbeam-uploads', Events: ['s3:ObjectCreated:*'] }],
          },
        }),
      ),
    );
    await step(steps, 'GetBucketNotificationConfiguration', () => s3.send(new GetBucketNotificationConfigurationCommand({ Bucket })));
    await step(steps, 'PutObject', () => s3.send(new PutObjectCommand({ Bucket, Key: 'uploads/a b/photo.png', Body: 'x'.repeat(1000), ContentType: 'image/png' })));
    await step(steps, 'MultipartUpload', async () => {
      const Key = 'uploads/big.bin';
      const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key }));
      const { ETag } = await s3.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: 'y'.repeat(1000) }));
      return s3.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } }));
    });
    // The same with a persistent topic (radosgw queues the notification and posts it later, with retries).
    const persistentBucket = 'notified-persistent';
    await createBucket(radosgw, persistentBucket, { allowedOrigins: ['*'] });
    const persistent = await step(steps, 'CreateTopic persistent', () =>
      sns.send(new CreateTopicCommand({ Name: 'upbeam-uploads-persistent', Attributes: { 'push-endpoint': `${pushEndpoint}&persistent=true`, persistent: 'true' } })),
    );
    await step(steps, 'PutBucketNotificationConfiguration persistent', () =>
      s3.send(
        new PutBucketNotificationConfigurationCommand({
          Bucket: persistentBucket,
          NotificationConfiguration: { TopicConfigurations: [{ Id: 'uploads', TopicArn: persistent?.TopicArn, Events: ['s3:ObjectCreated:*'] }] },
        }),
      ),
    );
    await step(steps, 'PutObject persistent', () => s3.send(new PutObjectCommand({ Bucket: persistentBucket, Key: 'uploads/p.png', Body: 'z', ContentType: 'image/png' })));
    const deadline = Date.now() + WAIT_MS;
    while (received.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    const version = await import('node:child_process').then(({ execFileSync }) => execFileSync('radosgw', ['--version']).toString().trim());
    console.log(JSON.stringify({ radosgw: version, pushEndpoint, receiverDelayMs: RECEIVER_DELAY_MS, steps, received, waitedMs: WAIT_MS }, null, 2));
  } finally {
    s3.destroy();
    sns.destroy();
    await radosgw.close();
    receiver.close();
  }
}

await main();
