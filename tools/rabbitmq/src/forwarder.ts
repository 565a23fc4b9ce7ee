import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';

/** A running {@link startForwarder}. */
export interface Forwarder {
  /** `http://127.0.0.1:{port}/`: radosgw's topic `push-endpoint`. */
  url: string;
  /** Notifications published and confirmed by the broker. */
  readonly published: number;
  /** Notifications answered 500: the broker was away (radosgw then drops them, as with its own AMQP push). */
  readonly refused: number;
  /** Each forwarded record's `eventTime` (ms since the epoch) by object key, for the queue lag of a benchmark. */
  readonly eventTimes: Map<string, number>;
  close(): Promise<void>;
}

/**
 * radosgw's HTTP push into RabbitMQ, for the scale test and the benchmark (radosgw 16.2.15's own AMQP push crashes
 * it under concurrent PUTs: upload-server's test/scale/amqp-events.test.ts): each POSTed notification is published, persistent, to `exchange` and
 * answered 200 once the broker confirmed it; 500 while there is no connection (it reconnects every 250 ms). The
 * routing key is `s3-notification`, as radosgw's own push uses the topic's name.
 */
export async function startForwarder(url: string, exchange: string): Promise<Forwarder> {
  let model: ChannelModel | undefined;
  let channel: ConfirmChannel | undefined;
  let closed = false;
  let published = 0;
  let refused = 0;
  const eventTimes = new Map<string, number>();
  const reconnect = async (): Promise<void> => {
    while (!closed) {
      try {
        model = await connect(url);
        channel = await model.createConfirmChannel();
        model.on('error', () => {});
        model.once('close', () => {
          channel = undefined;
          model = undefined;
          void reconnect();
        });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  await reconnect();

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      if (!channel) throw new Error('no connection to the broker');
      const sent = channel;
      await new Promise<void>((resolve, reject) =>
        sent.publish(exchange, 's3-notification', Buffer.concat(chunks), { persistent: true, contentType: 'application/json' }, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
      published += 1;
      try {
        const { Records } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Records?: { eventTime?: string; s3?: { object?: { key?: string } } }[] };
        for (const record of Records ?? []) {
          if (record.s3?.object?.key && record.eventTime) eventTimes.set(record.s3.object.key, Date.parse(record.eventTime));
        }
      } catch {
        // Not a notification: forwarded as it is.
      }
      response.writeHead(200).end();
    } catch {
      refused += 1;
      response.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    get published() {
      return published;
    },
    get refused() {
      return refused;
    },
    eventTimes,
    close: async () => {
      closed = true;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await model?.close().catch(() => {});
    },
  };
}
