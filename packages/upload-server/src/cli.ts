#!/usr/bin/env node
/**
 * `npx @upbeam/upload-server doctor [--origin URL] [--temporary-token] [--key-prefix P] [--dotenv F] [--json]`:
 * runs {@link diagnoseUploadConfig} with the `S3_UPLOAD_*` environment variables and prints the findings.
 * Exit code: 0 without a `fail`, 1 with one, 2 for a usage or settings error.
 */
import { parseArgs } from 'node:util';
import { diagnoseUploadConfig, formatFindings } from './doctor/index';

const USAGE = `Usage: upload-server doctor [options]

Checks the upload settings (S3_UPLOAD_* environment variables) against the real bucket.

Options:
  --origin <url>        origin of the app's pages, for the CORS check (env S3_UPLOAD_ORIGIN)
  --temporary-token     check the temporary-token strategy (default: when S3_UPLOAD_ROLE_ARN is set)
  --key-prefix <p>      the handler's keyPrefix (default next-s3-uploads/)
  --dotenv <path>       read variables from a .env file first (e.g. .env.local)
                        (not --env-file: Node 20 takes that option for itself wherever it appears)
  --json                print the findings as JSON
`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      origin: { type: 'string' },
      'temporary-token': { type: 'boolean' },
      'key-prefix': { type: 'string' },
      dotenv: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals[0] !== 'doctor') {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.dotenv !== undefined) process.loadEnvFile(values.dotenv);
  const findings = await diagnoseUploadConfig({
    origin: values.origin,
    temporaryToken: values['temporary-token'],
    keyPrefix: values['key-prefix'],
  });
  process.stdout.write(`${values.json ? JSON.stringify(findings, null, 2) : formatFindings(findings)}\n`);
  return findings.some((finding) => finding.status === 'fail') ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`upload-server doctor: ${error.message}\n`);
    process.exitCode = 2;
  },
);
