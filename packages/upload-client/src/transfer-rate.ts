/**
 * How far back the speed looks, in milliseconds: 5 s, long enough to smooth the bursts of one PUT's
 * progress events, short enough to follow a link that slows down.
 */
export const RATE_WINDOW_MS = 5000;

/** One reading: at `time` (ms), `bytes` sent in all so far. */
interface Sample {
  time: number;
  bytes: number;
}

/**
 * Upload speed over a sliding window: fed with the bytes sent (`add`), it answers bytes per second
 * over the last {@link RATE_WINDOW_MS}. Bytes sent again after a retry count: they used the link too.
 */
export class TransferRate {
  readonly #now: () => number;
  #samples: Sample[] = [];
  #total = 0;

  /** @param now - The clock, in milliseconds (`Date.now` by default; tests pass their own). */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Records `bytes` more sent (bytes). */
  add(bytes: number): void {
    const time = this.#now();
    // The window starts from a reading before the first bytes, so that the first interval counts.
    if (this.#samples.length === 0) this.#samples.push({ time, bytes: this.#total });
    this.#total += bytes;
    this.#samples.push({ time, bytes: this.#total });
    this.#forget(time);
  }

  /** Bytes per second over the window; 0 before two readings at different times, or after the window of silence. */
  bytesPerSecond(): number {
    const time = this.#now();
    this.#forget(time);
    const first = this.#samples[0];
    if (!first || time - first.time <= 0) return 0;
    return ((this.#total - first.bytes) * 1000) / (time - first.time);
  }

  /** Forgets every reading (a new batch starts). */
  clear(): void {
    this.#samples = [];
  }

  #forget(time: number): void {
    while (this.#samples.length > 1 && time - this.#samples[1]!.time > RATE_WINDOW_MS) this.#samples.shift();
    if (this.#samples.length === 1 && time - this.#samples[0]!.time > RATE_WINDOW_MS) this.#samples = [];
  }
}
