/**
 * Waiting for a new task of the event loop: work that would hold the main thread past 50 ms (a long task,
 * when the page cannot paint or answer input) is cut where it waits for one. A message, not `setTimeout`:
 * timers of a tab in the background run at most once a second (MDN, setTimeout: "Timeouts in inactive
 * tabs"), which would stall an upload while the user looks at another tab.
 */

/** The channel the page posts to itself through, made on first use. */
let channel: MessageChannel | undefined;

/** Who waits, in order: each message is a task of its own and wakes the first of them. */
const waiting: (() => void)[] = [];

/** Resolves in a new task of the event loop (its continuation runs there, not in the caller's task). */
export function nextTask(): Promise<void> {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  const port = channel.port2;
  return new Promise((resolve) => {
    waiting.push(resolve);
    port.postMessage(null);
  });
}
