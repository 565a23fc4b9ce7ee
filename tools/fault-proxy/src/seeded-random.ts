import { createHash } from 'node:crypto';

/**
 * A deterministic source of numbers in `[0, 1)`: draw `n` of seed `s` is read from SHA-256(`s:n`), so the
 * same seed gives the same sequence on every machine and Node version.
 */
export function seededRandom(seed: number | string): () => number {
  let draw = 0;
  return () => {
    const digest = createHash('sha256').update(`${seed}:${draw++}`).digest();
    return digest.readUInt32BE(0) / 2 ** 32;
  };
}
