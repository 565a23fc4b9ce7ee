/** The section of RESULTS.md on the storage-events consumer at 1,000 uploads (`storage-events/run.ts`). */
import type { StorageEventsResult } from './storage-events/run';
import { fmt } from './lib/stats';

export function storageEventsSection(result: StorageEventsResult, add: (...text: string[]) => void): void {
  const { live, backlog } = result;
  add(
    `## 2e. Storage events from RabbitMQ, 1,000 uploads (${result.machine.date.slice(0, 16).replace('T', ' ')} UTC, commit ${result.machine.commit})`,
    '',
    `\`${result.command}\` (build first: \`pnpm --filter @upbeam/upload-server build\`). ${result.settings}. ` +
      `RabbitMQ ${result.machine.versions.rabbitmq ?? 'n/a'}, amqplib ${result.machine.versions.amqplib ?? 'n/a'}. One run.`,
    '',
    `- Live (${live.consumers} consumers running while ${live.uploads} uploads took ${fmt(live.uploadSeconds, 1)} s): queue lag from the ` +
      `notification's \`eventTime\` to the hook's run, median **${fmt(live.lagMs.median)} ms**, p95 ${fmt(live.lagMs.p95)} ms, ` +
      `max ${fmt(live.lagMs.max)} ms (load ${fmt(live.load, 1)}).`,
    '',
    '| backlog of 1,000 notifications, consumers started | seconds to the last hook | objects completed per second | load (1 min) |',
    '| --- | ---: | ---: | ---: |',
    ...backlog.map((run) => `| ${run.consumers} consumer${run.consumers > 1 ? 's' : ''} | ${fmt(run.seconds, 1)} | **${fmt(run.perSecond, 1)}** | ${fmt(run.load, 1)} |`),
    '',
    'Each completion is five storage requests on radosgw (HEAD, the upload record listed and read, the marker claimed ' +
      'and answered), and the consumers share the machine\'s 2 cores with radosgw, the broker and the uploads: the rate is ' +
      'bound by storage and CPU, not by the queue (3 consumers complete about what 1 does here). Live, the consumers keep ' +
      'up with the uploads: the lag is the notification\'s way (radosgw\'s push, the broker) plus waiting behind up to 10 ' +
      'messages in hand per consumer, not a growing backlog.',
    '',
  );
}
