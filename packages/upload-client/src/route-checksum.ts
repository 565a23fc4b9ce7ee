/**
 * The checksum algorithm each route wants, as this page learned it from the server's answers, so that an upload
 * knows it before it asks: a single PUT hashes its file first and asks with the value, which the server signs
 * into the URL. Without it, the first single PUT of a route that wants a checksum is refused
 * (`CHECKSUM_REQUIRED`, naming the algorithm) and asked again once hashed: one more round trip per route and page.
 */
import { CHECKSUM_ALGORITHMS, DEFAULT_UPLOAD_ENDPOINT, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import type { UploadContext, UploadOptions } from './types';

/** Algorithms by endpoint URL and route, learned from answers (`null`: the route wants none). */
const learned = new Map<string, ChecksumAlgorithm | null>();

const routeOf = ({ options }: { options: UploadOptions }) => `${options.endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT} ${options.route ?? ''}`;

/**
 * The algorithm to ask for: the `checksum` option's; else the one the route's answers named on this page;
 * `undefined` to ask for none (the option is `false`, or nothing is known yet: the route's answer then says).
 */
export function knownChecksum(upload: { options: UploadOptions }): ChecksumAlgorithm | undefined {
  const { checksum } = upload.options;
  if (checksum !== undefined) return checksum || undefined;
  return routeChecksum(upload);
}

/**
 * Notes the algorithm an answer of the route named (`undefined`: none), for the next uploads of this page. A
 * prepared upload whose option names its own teaches nothing (its answer follows the option, not the route); a
 * refusal naming the route's algorithm (`fromRoute`: `CHECKSUM_REQUIRED`, `CHECKSUM_UNSUPPORTED`) always does.
 */
export function learnChecksum(upload: UploadContext, algorithm: unknown, fromRoute = false): void {
  if (upload.options.checksum && !fromRoute) return;
  learned.set(routeOf(upload), isAlgorithm(algorithm) ? algorithm : null);
}

/** The algorithm the route's answers named on this page, whatever the option; `undefined` when none or unknown. */
export const routeChecksum = (upload: { options: UploadOptions }): ChecksumAlgorithm | undefined => learned.get(routeOf(upload)) ?? undefined;

/** Whether `value` names one of {@link CHECKSUM_ALGORITHMS}. */
export const isAlgorithm = (value: unknown): value is ChecksumAlgorithm => CHECKSUM_ALGORITHMS.includes(value as ChecksumAlgorithm);
