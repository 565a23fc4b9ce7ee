/**
 * The storage-events consumer over AMQP 0-9-1 (RabbitMQ): reads radosgw's bucket notifications from a durable
 * queue and completes each object through {@link completeNotification}, the code `completeNotifiedUploads` runs.
 *
 * Delivery is at least once, so every message is settled after its work is done:
 * - completed, already recorded, refused by the route's rules or its hook, not prepared, not the app's: **ack**
 *   (the completion marker holds the answer, or nothing is left to do);
 * - a failed record (storage or hook error, or the hook still running elsewhere): **republished** to the queue with
 *   the attempt count in a header, after a pause, then acked; on the last attempt: **dead-lettered**;
 * - a body that is not a notification (poison): **dead-lettered** at once.
 * Several consumers on one queue run each hook once per object version: the completion marker, not the queue,
 * makes a repeated delivery a no-op.
 */
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage, RecoveringChannelModel } from 'amqplib';
import { compileApp } from '../app';
import type { UploadHandlerConfig } from '../config';
import { createObjectCompleter, type ReconciledObject } from '../reconcile-object';
import type { UploadRoutes } from '../routes';
import { completeNotification, eventRecords } from '../storage-events';
import { recordQueueLag } from '../telemetry';

/** The header of a republished message that counts the attempts made so far (1 after the first). */
export const ATTEMPTS_HEADER = 'x-upbeam-attempts';

/**
 * Reconnection after the broker goes away (amqplib's own recovery): the first retry after 200 ms, each next one
 * twice as late, at most 5 s apart, for ever until {@link StorageEventsConsumer.close}; the first connection
 * gives up after 5 retries (~6 s: a wrong URL fails the start, not the first message).
 */
const RECOVERY = { initialDelay: 200, maxDelay: 5_000, factor: 2, jitter: 0.2, initialMaxRetries: 5 } as const;

/**
 * The pause before a failed notification is tried again, in milliseconds: 2 s, doubled each attempt, at most 30 s.
 * With the default 5 attempts the last one comes ~70 s after the first (each attempt that finds the hook running
 * elsewhere also waits up to 10 s for it): past the 60 s after which a claim whose process died is taken over.
 */
const retryDelayMs = (attempt: number) => Math.min(30_000, 2_000 * 2 ** (attempt - 1));

/** Options of {@link consumeStorageEvents}. */
export interface StorageEventsConsumerOptions {
  /** The broker's URL, e.g. `amqp://user:password@rabbitmq.internal:5672/vhost` (amqplib's `connect`). */
  url: string;
  /**
   * The durable queue to read, declared if missing with a dead-letter exchange (`x-dead-letter-exchange`). A queue
   * that exists with other arguments fails the start (RabbitMQ's `PRECONDITION_FAILED`): delete it or name another.
   */
  queue: string;
  /**
   * The exchange storage publishes to (radosgw's topic attribute `amqp-exchange`): a durable `topic` exchange,
   * declared if missing, and the queue bound to it with {@link StorageEventsConsumerOptions.bindingKey}. Without
   * it the queue is read as it is bound. radosgw publishes to an exchange that exists only: start the consumer
   * (or declare the exchange) before storage sends.
   */
  exchange?: string;
  /** The binding of the queue to `exchange`; radosgw's routing key is the topic's name. @default '#' (every message) */
  bindingKey?: string;
  /** Messages this consumer works on at once (AMQP prefetch). @default 10 */
  prefetch?: number;
  /** Attempts of a notification whose record failed before it is dead-lettered. @default 5 */
  maxAttempts?: number;
  /**
   * The durable `fanout` exchange dead-lettered messages go to, declared if missing, with a durable queue
   * `{queue}.dead-letter` bound to it to hold them. @default `{queue}.dead-letter`
   */
  deadLetterExchange?: string;
  /**
   * Gets what went wrong without stopping the consumer: a poison message, a failed record (each failed object is
   * also given to the config's `onError`), a message dead-lettered after its last attempt, a lost connection.
   * @default the config's `onError`, else one line on the console
   */
  onError?: (error: unknown) => void;
}

/** A running consumer. */
export interface StorageEventsConsumer {
  /**
   * Stops taking messages, lets the ones in hand finish (a retry waiting for its pause is left unacked: the broker
   * gives it to another consumer), closes the connection and the app's storage clients. Safe to call twice.
   */
  close(): Promise<void>;
}

/**
 * Consumes storage event notifications from a RabbitMQ queue and completes the uploads they tell of, as
 * `completeNotifiedUploads` does for one notification: HEAD, the route's checks, the completion marker,
 * `onUploadComplete` once with `source: 'reconcile'` and the context the upload's preparation recorded.
 *
 * Each message is one notification body (radosgw's `{ Records }`, or an SNS envelope holding one). A message is
 * acked only once its objects' completions are recorded (or need nothing); a failed record is tried again up to
 * `maxAttempts` times (the count in the header `x-upbeam-attempts`), then dead-lettered; a body that is not a
 * notification is dead-lettered at once. Run as many consumers on the queue as you like: the completion marker
 * runs each hook once per object version. When the broker goes away the consumer reconnects on its own (after
 * 0.2 s, then up to 5 s apart, for ever) and messages it had not acked are delivered again.
 *
 * What it cannot see: a notification storage failed to publish (radosgw drops a non-persistent topic's event when
 * the broker is down, and the upload still succeeds). Keep `reconcileUploads` running now and then as the backstop.
 *
 * Needs the optional peer dependency `amqplib` (`npm install amqplib`, 2.2 or later: its connection recovery).
 *
 * @param config the handler's configuration (`createUploadHandler`'s), routes included.
 * @returns once connected and consuming.
 * @throws Error when the broker cannot be reached after ~6 s of retries, or the queue or exchange exist with other
 *   settings; `UploadError` `MISSING_SETTINGS` / `INVALID_SETTINGS` as `createUploadHandler`.
 * @example
 * // worker.ts: radosgw's topic has push-endpoint=amqp://rabbitmq.internal:5672, amqp-exchange=storage, amqp-ack-level=broker
 * import { consumeStorageEvents } from '@upbeam/upload-server/amqp';
 * import { uploadConfig } from './upload-config';
 *
 * const consumer = await consumeStorageEvents(uploadConfig, {
 *   url: process.env.AMQP_URL!,
 *   queue: 'upload-completions',
 *   exchange: 'storage',
 * });
 * process.once('SIGTERM', () => void consumer.close());
 */
export async function consumeStorageEvents(
  config: UploadHandlerConfig & { routes?: UploadRoutes },
  options: StorageEventsConsumerOptions,
): Promise<StorageEventsConsumer> {
  const { url, queue, exchange, bindingKey = '#', prefetch = 10, maxAttempts = 5, deadLetterExchange = `${queue}.dead-letter` } = options;
  if (!Number.isInteger(prefetch) || prefetch < 1) throw new RangeError(`prefetch must be a whole number of at least 1, not ${prefetch}.`);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a whole number of at least 1, not ${maxAttempts}.`);
  const app = compileApp(config);
  const onError = options.onError ?? app.onError;
  const completer = await createObjectCompleter(app);
  const amqp = await import('amqplib').catch((error: unknown) => {
    app.destroy();
    throw new Error('consumeStorageEvents needs the package `amqplib` (2.2 or later): npm install amqplib', { cause: error });
  });
  const connect = (amqp.connect ?? (amqp as unknown as { default: typeof amqp }).default.connect) as typeof amqp.connect;

  let closing = false;
  const inFlight = new Set<Promise<void>>();
  /** Ends the pauses before retries at once when the consumer closes. */
  const pauses = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => (clearTimeout(timer), pauses.delete(done), resolve());
      const timer = setTimeout(done, ms);
      pauses.add(done);
    });

  /** What to try again in a notification's outcome: failed objects, and those whose hook runs elsewhere. */
  const unfinished = (objects: ReconciledObject[]) =>
    objects.filter(({ outcome, code }) => outcome === 'failed' || (outcome === 'refused' && code === 'COMPLETION_IN_PROGRESS'));

  const handle = async (channel: ConfirmChannel, message: ConsumeMessage) => {
    let records;
    try {
      records = eventRecords(JSON.parse(message.content.toString('utf8')));
    } catch (error) {
      onError(new Error(`A message of queue ${queue} is not a storage event notification: dead-lettered.`, { cause: error }));
      channel.nack(message, false, false);
      return;
    }
    // `upbeam.queue.lag` (telemetry.ts): each record's event time to now, at every delivery (a retry's too).
    for (const record of records) recordQueueLag(typeof record.eventTime === 'string' ? record.eventTime : undefined);
    let failure: unknown;
    try {
      const left = unfinished((await completeNotification(completer, records)).objects);
      if (left.length > 0) failure = new Error(`Not completed: ${left.map(({ key, error }) => `${key} (${error})`).join(', ')}`);
    } catch (error) {
      failure = error;
    }
    if (failure === undefined) return channel.ack(message);
    const attempts = attemptsOf(message) + 1;
    if (attempts >= maxAttempts) {
      onError(new Error(`A notification of queue ${queue} failed ${attempts} times: dead-lettered.`, { cause: failure }));
      return channel.nack(message, false, false);
    }
    onError(failure);
    await pause(retryDelayMs(attempts));
    // Closing: left unacked, the broker gives it to another consumer (this attempt is not counted).
    if (closing) return;
    const { content, properties } = message;
    channel.sendToQueue(queue, content, {
      persistent: true,
      contentType: properties.contentType,
      headers: { ...properties.headers, [ATTEMPTS_HEADER]: attempts },
    });
    await channel.waitForConfirms();
    channel.ack(message);
  };

  let current: { channel: ConfirmChannel; consumerTag: string } | undefined;
  const declare = async (channel: Channel) => {
    await channel.assertExchange(deadLetterExchange, 'fanout', { durable: true });
    await channel.assertQueue(`${queue}.dead-letter`, { durable: true });
    await channel.bindQueue(`${queue}.dead-letter`, deadLetterExchange, '');
    await channel.assertQueue(queue, { durable: true, arguments: { 'x-dead-letter-exchange': deadLetterExchange } });
    if (exchange !== undefined) {
      await channel.assertExchange(exchange, 'topic', { durable: true });
      await channel.bindQueue(queue, exchange, bindingKey);
    }
  };

  let connection: RecoveringChannelModel;
  try {
    connection = await connect(url, {
      recovery: {
        ...RECOVERY,
        // After each (re)connection: the topology, then this connection's channel and consumer.
        setup: async (model: ChannelModel) => {
          const channel = await model.createConfirmChannel();
          channel.on('error', onError);
          await declare(channel);
          await channel.prefetch(prefetch);
          const { consumerTag } = await channel.consume(queue, (message: ConsumeMessage | null) => {
            if (message === null) return;
            const work = handle(channel, message)
              // A channel that closed meanwhile (the broker went away): the message is delivered again.
              .catch(onError)
              .finally(() => inFlight.delete(work));
            inFlight.add(work);
          });
          current = { channel, consumerTag };
        },
      },
    });
  } catch (error) {
    app.destroy();
    throw error;
  }
  connection.on('error', onError);
  connection.on('disconnect', (error: Error) => {
    if (!closing) onError(new Error(`Lost the connection to the broker of queue ${queue}: reconnecting.`, { cause: error }));
  });

  let closed: Promise<void> | undefined;
  return {
    close: () =>
      (closed ??= (async () => {
        closing = true;
        for (const end of pauses) end();
        if (current) await current.channel.cancel(current.consumerTag).catch(() => {});
        await Promise.allSettled([...inFlight]);
        await connection.close().catch(() => {});
        app.destroy();
      })()),
  };
}

/** The attempts a message records (its header), 0 for one storage sent. */
function attemptsOf(message: ConsumeMessage): number {
  const value = Number(message.properties.headers?.[ATTEMPTS_HEADER]);
  return Number.isInteger(value) && value > 0 ? value : 0;
}
