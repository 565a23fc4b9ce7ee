/**
 * Every benchmark process talks to 127.0.0.1 only. Importing this module makes any DNS lookup of another
 * host fail at once, so that a misconfigured client (an SDK falling back to its AWS endpoint) errors
 * instead of reaching out. IP literals skip the lookup: they are checked where servers are addressed.
 */
import dns from 'node:dns';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
const original = dns.lookup;

(dns as { lookup: unknown }).lookup = function guardedLookup(hostname: string, ...rest: unknown[]) {
  if (LOOPBACK.has(hostname)) return (original as (...args: unknown[]) => unknown).call(dns, hostname, ...rest);
  const callback = rest.at(-1) as (error: Error) => void;
  const error = Object.assign(new Error(`bench: refused to look up ${hostname}: benchmarks stay on 127.0.0.1`), {
    code: 'ENOTFOUND',
  });
  process.nextTick(() => callback(error));
  return {};
};
