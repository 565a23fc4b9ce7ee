import { PutBucketNotificationConfigurationCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateTopicCommand, DeleteTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import type { RadosgwConnection } from '@upbeam/ceph-rgw';

/**
 * radosgw's bucket notifications, for the suites: a topic (CreateTopic through radosgw's SNS-compatible API)
 * whose `push-endpoint` is `pushEndpoint`, and `bucket`'s configuration sending it every `s3:ObjectCreated:*`.
 * Not persistent: radosgw 16.2 here posted nothing within 15 s from a persistent topic (its queue).
 * @returns A function that deletes the topic.
 */
export async function notifyObjectCreated(connection: RadosgwConnection, admin: S3Client, bucket: string, pushEndpoint: string): Promise<() => Promise<void>> {
  const { endpoint, region, accessKeyId, secretAccessKey } = connection;
  const sns = new SNSClient({ endpoint, region, credentials: { accessKeyId, secretAccessKey } });
  const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: `upbeam-${bucket}`, Attributes: { 'push-endpoint': pushEndpoint, persistent: 'false' } }));
  await admin.send(
    new PutBucketNotificationConfigurationCommand({
      Bucket: bucket,
      NotificationConfiguration: { TopicConfigurations: [{ Id: 'uploads', TopicArn, Events: ['s3:ObjectCreated:*'] }] },
    }),
  );
  return async () => {
    await sns.send(new DeleteTopicCommand({ TopicArn })).catch(() => {});
    sns.destroy();
  };
}
