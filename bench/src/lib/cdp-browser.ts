/**
 * Headless Debian chromium driven over a bare DevTools pipe (`--remote-debugging-pipe`), for the upload
 * benchmark. Not playwright: playwright enables the Network domain on every page, and chromium then copies
 * the body of every request sent from memory (an ArrayBuffer, as next-s3-upload sends) into a DevTools
 * event: hundreds of MB of base64 per upload, which slows the measured client and makes playwright
 * throw past ~128 MiB (`Cannot create a string longer than 0x1fffffe8 characters`). Here only the Runtime,
 * DOM and HeapProfiler commands the benchmark sends are used. Same binary and flags as tools/test-browser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@upbeam/test-browser';
import { onClientCores } from './cores';

type Params = Record<string, unknown>;

export interface CdpPage {
  /** Evaluates `expression` in the page, awaiting a promise; returns its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  send<T = Params>(method: string, params?: Params): Promise<T>;
  /** Calls `listener` with the params of every `method` event of this page's session; returns the unsubscribe. */
  on(method: string, listener: (params: Params) => void): () => void;
  /** Sets the file of the `<input type=file>` matched by `selector` (the browser reads it from disk). */
  setInputFile(selector: string, path: string): Promise<void>;
  close(): Promise<void>;
}

export interface CdpBrowser {
  version: string;
  /** The browser process (its descendants are the renderers, the network service, ...). */
  pid: number;
  newPage(url: string): Promise<CdpPage>;
  close(): Promise<void>;
}

export async function launchCdpBrowser(): Promise<CdpBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'upbeam-bench-chromium-'));
  // On the client's core where the upload benchmark splits them (taskset runs chromium in its own process).
  const [file, args] = onClientCores(CHROMIUM_PATH, ['--headless', '--remote-debugging-pipe', `--user-data-dir=${profile}`, ...CHROMIUM_ARGS, 'about:blank']);
  const child: ChildProcess = spawn(file, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const writer = child.stdio[3] as Writable;
  const reader = child.stdio[4] as Readable;
  let nextId = 1;
  const pending = new Map<number, { resolve(value: Params): void; reject(error: Error): void; method: string }>();
  /** Event listeners by `sessionId method`. */
  const listeners = new Map<string, Set<(params: Params) => void>>();
  let buffered = '';
  reader.setEncoding('utf8');
  reader.on('data', (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf('\0'); end !== -1; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as {
        id?: number;
        result?: Params;
        error?: { message: string };
        method?: string;
        params?: Params;
        sessionId?: string;
      };
      buffered = buffered.slice(end + 1);
      if (message.id === undefined) {
        for (const listener of listeners.get(`${message.sessionId} ${message.method}`) ?? []) listener(message.params ?? {});
        continue;
      }
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(`${waiter.method}: ${message.error.message}`));
      else waiter?.resolve(message.result ?? {});
    }
  });
  child.once('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('chromium exited'));
    pending.clear();
  });
  const send = <T = Params>(method: string, params: Params = {}, sessionId?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: Params) => void, reject, method });
      writer.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });

  const { product } = await send<{ product: string }>('Browser.getVersion');
  return {
    version: product,
    pid: child.pid!,
    async newPage(url) {
      const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      const page: CdpPage = {
        send: (method, params) => send(method, params, sessionId),
        on(method, listener) {
          const key = `${sessionId} ${method}`;
          const set = listeners.get(key) ?? new Set();
          listeners.set(key, set.add(listener));
          return () => set.delete(listener);
        },
        async evaluate<T>(expression: string) {
          const answer = await send<{ result: { value?: unknown }; exceptionDetails?: { exception?: { description?: string }; text: string } }>(
            'Runtime.evaluate',
            { expression, awaitPromise: true, returnByValue: true },
            sessionId,
          );
          if (answer.exceptionDetails) {
            throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
          }
          return answer.result.value as T;
        },
        async setInputFile(selector, path) {
          const { root } = await send<{ root: { nodeId: number } }>('DOM.getDocument', { depth: 0 }, sessionId);
          const { nodeId } = await send<{ nodeId: number }>('DOM.querySelector', { nodeId: root.nodeId, selector }, sessionId);
          if (!nodeId) throw new Error(`no element ${selector}`);
          await send('DOM.setFileInputFiles', { files: [path], nodeId }, sessionId);
        },
        close: async () => {
          await send('Target.closeTarget', { targetId }).catch(() => {});
        },
      };
      await page.send('Page.navigate', { url });
      return page;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await send('Browser.close').catch(() => {});
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      await rm(profile, { recursive: true, force: true });
    },
  };
}
