import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { UploadHandlerConfig } from '../config';
import { reconcileUploads, type ReconcileOptions } from '../reconcile';
import type { UploadRoutes } from '../routes';

export const RECONCILE_USAGE = `Usage: upload-server reconcile --config <module> [options]

Finds stored uploads that no page reported (no completion record, older than the grace period) and, with
--apply, runs their route's onUploadComplete once, as a report would. Dry run by default. Prints JSON.

Options:
  --config <module>     a module whose default export (or export "uploadConfig") is the handler's
                        configuration, routes included: .js/.mjs (or .ts where Node strips types)
  --apply               run the checks and hooks (default: a dry run that only lists and reads)
  --older-than <s>      grace period in seconds (default 7200: a receipt's lifetime)
  --max-age <s>         skip objects older than this, in seconds (default 86400; keep it below the
                        age at which a lifecycle rule expires .upbeam/completions/ markers)
  --max-requests <n>    most storage requests (default 1000)
  --max-seconds <s>     start no new work after this many seconds (default 25)
  --page-size <n>       keys per list page, 1-1000 (default 1000)
  --start-after <key>   continue after this key (the lastKey of a stopped run)
  --dotenv <path>       read variables from a .env file first (e.g. .env.local)
`;

/** A whole number from a command-line value. @throws Error naming the option when it is not one. */
function whole(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${option} must be a whole number, got "${value}".`);
  return Number(value);
}

/** The handler's configuration from the module at `path` (relative to the working folder). */
async function loadConfig(path: string): Promise<UploadHandlerConfig & { routes?: UploadRoutes }> {
  const module = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown; uploadConfig?: unknown };
  const config = module.uploadConfig ?? module.default;
  if (config === null || typeof config !== 'object') {
    throw new Error(`${path} must export the handler's configuration object as its default export or as "uploadConfig".`);
  }
  return config as UploadHandlerConfig & { routes?: UploadRoutes };
}

/**
 * `upload-server reconcile`: runs {@link reconcileUploads} with the configuration module's settings and
 * prints its report as JSON. Exit code: 0, or 1 when an object failed (an unexpected error: a later run
 * tries it again).
 */
export async function reconcileCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      apply: { type: 'boolean' },
      'older-than': { type: 'string' },
      'max-age': { type: 'string' },
      'max-requests': { type: 'string' },
      'max-seconds': { type: 'string' },
      'page-size': { type: 'string' },
      'start-after': { type: 'string' },
      dotenv: { type: 'string' },
    },
  });
  if (values.config === undefined) throw new Error('--config <module> is required: the module that exports the handler configuration.');
  const options: ReconcileOptions = {
    dryRun: !values.apply,
    olderThanSeconds: whole(values['older-than'], 'older-than'),
    maxAgeSeconds: whole(values['max-age'], 'max-age'),
    maxRequests: whole(values['max-requests'], 'max-requests'),
    maxSeconds: whole(values['max-seconds'], 'max-seconds'),
    pageSize: whole(values['page-size'], 'page-size'),
    startAfter: values['start-after'],
  };
  if (values.dotenv !== undefined) process.loadEnvFile(values.dotenv);
  const report = await reconcileUploads(await loadConfig(values.config), options);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return report.objects.some((object) => object.outcome === 'failed') ? 1 : 0;
}
