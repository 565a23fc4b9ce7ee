import { startFaultProxy, type FaultProxy, type FaultProxyOptions } from '@upbeam/fault-proxy';
import { createUploadHandler } from '@upbeam/upload-server';
import { startExample, type RunningExample } from './example-server';

/** The example with its storage behind the fault proxy (see {@link startProxiedExample}). */
export interface ProxiedExample {
  example: RunningExample;
  proxy: FaultProxy;
  /** The object key the endpoint gave each `filename`, the last one asked for (a file sent again gets a new key). */
  keys: Map<string, string>;
  close(): Promise<void>;
}

/**
 * Starts the example with its storage (s3rver) behind a fault proxy with `faults`: the endpoint signs for the
 * proxy's address, so every browser request to storage goes through it and is logged and counted there.
 */
export async function startProxiedExample(faults: Omit<FaultProxyOptions, 'target'>): Promise<ProxiedExample> {
  const example = await startExample();
  const proxy = await startFaultProxy({ target: example.storage.endpoint, ...faults });
  const keys = new Map<string, string>();
  const handler = createUploadHandler({ ...example.settings, endpoint: proxy.url, stsClient: example.storage.stsClient });
  example.setUploadHandler(async (request) => {
    const { filename } = (await request.clone().json()) as { filename?: string };
    const response = await handler(request);
    if (response.ok && filename) {
      const { key } = (await response.clone().json()) as { key?: string };
      if (key) keys.set(filename, key);
    }
    return response;
  });
  return {
    example,
    proxy,
    keys,
    close: async () => {
      await proxy.close();
      await example.close();
    },
  };
}
