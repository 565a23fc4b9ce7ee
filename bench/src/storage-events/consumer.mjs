// One storage-events consumer process of the benchmark (run.ts): consumeStorageEvents from the built package, with a
// hook that appends `{idempotencyKey} {key} {pid} {ms since epoch}` to a file. Settings: JSON in UPBEAM_CONSUMER;
// prints `ready` once consuming; closes on SIGTERM.
import { appendFileSync } from 'node:fs';
import { consumeStorageEvents } from '@upbeam/upload-server/amqp';

const { storage, keyPrefix, hookFile, amqp } = JSON.parse(process.env.UPBEAM_CONSUMER);
const config = {
  ...storage,
  routes: {
    files: {
      keyPrefix,
      onUploadComplete: ({ idempotencyKey, key }) => {
        appendFileSync(hookFile, `${idempotencyKey} ${key} ${process.pid} ${Date.now()}\n`);
        return { ok: true };
      },
    },
  },
  onError: () => {},
};
const errors = [];
const consumer = await consumeStorageEvents(config, { ...amqp, onError: (error) => errors.push(error) });
process.stdout.write('ready\n');
process.once('SIGTERM', async () => {
  await consumer.close();
  process.stdout.write(`closed ${errors.length} errors\n`);
  process.exit(0);
});
