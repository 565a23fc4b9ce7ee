/**
 * @module
 * `@upbeam/upload-server/amqp`: completion from storage events through RabbitMQ. {@link consumeStorageEvents}
 * reads the bucket notifications storage publishes to a queue (radosgw's topic with an `amqp://` push endpoint)
 * and completes each upload as `completeNotifiedUploads` does. Needs the optional peer dependency `amqplib`.
 */
export {
  ATTEMPTS_HEADER,
  consumeStorageEvents,
  type StorageEventsConsumer,
  type StorageEventsConsumerOptions,
} from './consume-storage-events';
