/// <reference path="./s3rver.d.ts" />
/**
 * s3rver's internals this package builds on, read from `@20minutes/s3rver/lib` (pinned to 4.0.4 in
 * package.json, since these paths are not its public API): the account registry that holds the key pairs
 * it accepts, its S3 error (which it renders as S3's XML error body), its XML body parser, and the middleware
 * that checks request signatures and sets CORS headers.
 */
import { createRequire } from 'node:module';
import type { S3rverMiddleware } from '@20minutes/s3rver';

const require = createRequire(import.meta.url);

interface AwsAccount {
  id: number;
  accessKeys: Map<string, string>;
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  revokeAccessKey(accessKeyId: string): void;
}

/** `lib/models/account.js`: the one account of s3rver; `registry` maps an access key id to it. */
export const accounts = require('@20minutes/s3rver/lib/models/account.js') as {
  DUMMY_ACCOUNT: AwsAccount;
  registry: Map<string, AwsAccount>;
};

/** `lib/models/error.js`: thrown from a middleware, s3rver answers `<Error><Code>` with the code's status. */
export const S3Error = require('@20minutes/s3rver/lib/models/error.js') as new (
  code: string,
  message?: string,
  details?: Record<string, string>,
) => Error;

/**
 * `lib/utils.js`: reads the request's body (`ctx.req`) as XML into `ctx.request.body`.
 * @throws `MalformedXML` when it is not well-formed.
 */
export const xmlBodyParser = (require('@20minutes/s3rver/lib/utils.js') as {
  xmlBodyParser(ctx: { req: NodeJS.ReadableStream; request: { body?: unknown } }): Promise<void>;
}).xmlBodyParser;

/** `lib/middleware/authentication.js`: checks the SigV2/SigV4 signature of `ctx.params.bucket`/`key`. */
export const authentication = require('@20minutes/s3rver/lib/middleware/authentication.js') as () => S3rverMiddleware;

/** `lib/middleware/cors.js`: sets the bucket's CORS headers on an answer. */
export const cors = require('@20minutes/s3rver/lib/middleware/cors.js') as () => S3rverMiddleware;
