// One storage-events consumer process of the scale test (amqp-events.test.ts) and of bench:storage-events
// (bench/src/storage-events/run.ts): consumeStorageEvents from the
// built package (`pnpm --filter @upbeam/upload-server build` first), with a hook that appends one line per run to
// a file shared by every consumer: `{idempotencyKey} {key} {pid} {ms since epoch}`. Its settings come as JSON in
// the environment variable UPBEAM_CONSUMER; it prints `ready` once consuming, and closes on SIGTERM.
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
