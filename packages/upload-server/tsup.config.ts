import { dirname, join } from 'node:path';
import { defineConfig } from 'tsup';
import type { Plugin } from 'esbuild';
import { libraryConfig } from '../../tsup.base';

/**
 * The AWS SDK's XML parser, not its browser variant: `@aws-sdk/xml-builder` maps `./xml-parser` to a file
 * that needs `DOMParser` (browsers only) for bundlers that read its `browser` field, which wrangler and
 * Next.js's edge build do: every XML answer (STS, CreateMultipartUpload, ListParts, errors) then failed on
 * workerd (aws/aws-sdk-js-v3#7375). Its default file is plain JavaScript and runs anywhere.
 */
const sdkXmlParser: Plugin = {
  name: 'sdk-xml-parser',
  setup(build) {
    build.onResolve({ filter: /^\.\/xml-parser(\.js)?$/ }, ({ importer }) =>
      /[\\/]@aws-sdk[\\/]xml-builder[\\/]/.test(importer) ? { path: join(dirname(importer), 'xml-parser.js') } : undefined,
    );
  },
};

export default [
  libraryConfig({
    // The main entry and one per framework adapter (`@upbeam/upload-server/node`, `/next`).
    entry: { index: 'src/index.ts', 'adapters/node': 'src/adapters/node.ts', 'adapters/next': 'src/adapters/next.ts',
      // The config doctor (`@upbeam/upload-server/doctor`) and its CLI (`npx @upbeam/upload-server doctor`).
      'doctor/index': 'src/doctor/index.ts',
      cli: 'src/cli.ts',
      // Limits counted in Redis (`@upbeam/upload-server/redis`): the app's ioredis client, an optional peer.
      'redis/index': 'src/redis/index.ts',
      // Storage events from RabbitMQ (`@upbeam/upload-server/amqp`): amqplib, an optional peer.
      'amqp/index': 'src/amqp/index.ts',
    },
    // Shared code goes to chunks that every entry imports, in CommonJS too (esbuild splits ESM only;
    // tsup's splitting extends it to CJS). Without it each adapter bundles its own copy of the handler
    // and of `UploadError`, and `instanceof` fails across entries.
    splitting: true,
    // `pnpm run build` empties dist/ first: two builds write to it.
    clean: false,
  }),
  // The build for Workers and edge runtimes (export conditions `workerd`, `worker`, `edge-light`): the AWS
  // SDK bundled in as a browser bundler resolves it (fetch, WebCrypto: no `nodejs_compat`), with its plain
  // XML parser (`sdkXmlParser`). A user's wrangler or Next.js edge build then needs no alias.
  defineConfig({
    entry: { index: 'src/index.ts', 'adapters/next': 'src/adapters/next.ts' },
    outDir: 'dist/worker',
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    // No source maps: they would be the SDK's, 1.8 MB.
    sourcemap: false,
    clean: false,
    dts: false,
    noExternal: [/^@aws-sdk\//, /^@smithy\//],
    esbuildPlugins: [sdkXmlParser],
    // src/builtin-crypto.ts: WebCrypto and the SDK's portable SHA-256 here, never `process.getBuiltinModule('node:crypto')`.
    define: { UPBEAM_WORKER_BUILD: 'true' },
    esbuildOptions(options) {
      options.conditions = ['workerd', 'worker', 'browser'];
    },
  }),
];
