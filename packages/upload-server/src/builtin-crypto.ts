/**
 * `true` in the build for Workers and edge runtimes (`define` in tsup.config.ts), where `node:crypto` is not
 * asked for: Next.js's edge runtime has a `process.getBuiltinModule` that throws. Undeclared elsewhere.
 */
declare const UPBEAM_WORKER_BUILD: boolean;

/**
 * The `node:crypto` the runtime has built in (Node >= 20.16, Bun, Deno), got without an import (no module to
 * load: cold start; its hashes and HMACs answer synchronously); else undefined (the worker build, workers
 * without Node.js compatibility): then WebCrypto.
 */
export function builtinCrypto(): typeof import('node:crypto') | undefined {
  if (typeof UPBEAM_WORKER_BUILD !== 'undefined' && UPBEAM_WORKER_BUILD) return undefined;
  try {
    const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    return getBuiltinModule?.('node:crypto') as typeof import('node:crypto') | undefined;
  } catch {
    return undefined;
  }
}
