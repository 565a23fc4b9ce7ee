/**
 * The load generator of the preparation benchmark, in a process of its own (pinned to the other core than
 * the server's): `tsx load.ts '{"url":...,"body":...,"seconds":N}'` runs autocannon once and prints its
 * figures as one JSON line, then exits. In the benchmark's own process autocannon shared a core (and an
 * event loop) with the runner and held the bare node:http ceiling at a third of what it is.
 */
import '../lib/loopback-guard';
import autocannon from 'autocannon';

export interface LoadSettings {
  url: string;
  body: string;
  connections: number;
  /** Seconds of load; or, with `amount`, the longest the load may take. */
  seconds: number;
  /** Requests to send, in all (then `seconds` only bounds the time). */
  amount?: number;
}

export interface LoadFigures {
  requests: number;
  /** Seconds from the first request to the last answer. */
  seconds: number;
  p50: number;
  p99: number;
  failures: number;
}

const settings = JSON.parse(process.argv[2] ?? '{}') as LoadSettings;
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon(
    {
      url: settings.url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: settings.body,
      connections: settings.connections,
      ...(settings.amount ? { amount: settings.amount } : { duration: settings.seconds }),
    },
    (error, figures) => (error ? reject(error as Error) : resolve(figures)),
  );
  // autocannon bounds a count of requests by nothing else: `seconds` does.
  if (settings.amount) setTimeout(() => instance.stop(), settings.seconds * 1000).unref();
});
const figures: LoadFigures = {
  requests: result.requests.total,
  seconds: (result.finish.getTime() - result.start.getTime()) / 1000,
  p50: result.latency.p50,
  p99: result.latency.p99,
  failures: result.non2xx + result.errors + result.timeouts,
};
console.log(JSON.stringify(figures));
process.exit(0);
