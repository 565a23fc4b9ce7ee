// Types for the parts of `@20minutes/s3rver` (4.0.4, CommonJS, untyped) this package uses: the server, and
// three internals it builds on (the account registry, the S3 error, the middleware that checks signatures).
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: string[] }[];
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    /** Koa's middleware list: s3rver's router is the last entry. */
    middleware: S3rverMiddleware[];
    /** Its filesystem store: the two calls that turn a bucket and a key into a path. */
    store: {
      getBucketPath(bucket: string): string;
      getResourcePath(bucket: string, key?: string, resource?: string): string;
    };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Creates the bucket and its configurations (`configureBuckets`), as `run()` does first. */
    configureBuckets(): Promise<void>;
    /** Koa's request listener, for a `node:http` server. */
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
  }

  /** The slice of a Koa context the added middleware reads and writes. */
  export interface S3rverContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    headers: Record<string, string | string[] | undefined>;
    params: Record<string, string | undefined>;
    state: Record<string, unknown>;
    req: import('node:http').IncomingMessage;
    status: number;
    body: unknown;
    type: string;
    set(name: string, value: string): void;
    get(name: string): string;
    /** s3rver's filesystem store (only the calls this package uses). */
    store: {
      deleteObject(bucket: string, key: string): Promise<void>;
      getResourcePath(bucket: string, key?: string, resource?: string): string;
      /** The bucket, or null when there is none. */
      getBucket(bucket: string): Promise<object | null>;
      /** Stores an object (`lib/models/object.js`); replaced by whole-objects.ts. */
      putObject(object: object): Promise<{ size: number; md5: string }>;
      /** Writes a configuration (`tagging`, ...) beside an object, as `{type}.xml`. */
      putSubresource(bucket: string, key: string, resource: { type: string; toXML(space?: number): string }): Promise<void>;
    };
  }
  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void> | void;
}
