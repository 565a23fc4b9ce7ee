import { createHash } from 'node:crypto';

/**
 * The order in which the modes of one round run: a fresh pseudo-random order every round (the modes sorted by a
 * hash of the round and their id), the same again on a rerun. A rotation kept the modes' cyclic order, so each
 * mode followed the same mode in nearly every round: whatever an upload leaves storage doing (a multipart
 * upload's parts to free, a collection to run) then fell on the same next mode each time. A new order a round
 * spreads it over all of them.
 */
export function roundOrder<T extends { id: string }>(modes: readonly T[], round: number): T[] {
  const rank = (mode: T) => createHash('sha256').update(`${round}:${mode.id}`).digest('hex');
  const ranks = new Map(modes.map((mode) => [mode, rank(mode)]));
  return [...modes].sort((a, b) => (ranks.get(a)! < ranks.get(b)! ? -1 : 1));
}
