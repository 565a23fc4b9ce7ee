// storage-events-worker.ts: run as many as you like; each hook still runs once per object.
// radosgw's topic: push-endpoint=amqp://rabbitmq.internal:5672, amqp-exchange=storage, amqp-ack-level=broker
import { consumeStorageEvents } from '@upbeam/upload-server/amqp';
import { uploadConfig } from './upload-config';

const consumer = await consumeStorageEvents(uploadConfig, {
  url: process.env.AMQP_URL!, // amqp://user:password@rabbitmq.internal:5672
  queue: 'upload-completions',
  exchange: 'storage',
});
process.once('SIGTERM', () => void consumer.close());
