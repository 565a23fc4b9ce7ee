import { parseArgs } from 'node:util';
import { diagnoseUploadConfig, formatFindings } from '../doctor/index';

export const DOCTOR_USAGE = `Usage: upload-server doctor [options]

Checks the upload settings (S3_UPLOAD_* environment variables) against the real bucket.

Options:
  --origin <url>        origin of the app's pages, for the CORS check (env S3_UPLOAD_ORIGIN)
  --temporary-token     check the temporary-token strategy (default: when S3_UPLOAD_ROLE_ARN is set)
  --key-prefix <p>      the handler's keyPrefix (default next-s3-uploads/)
  --dotenv <path>       read variables from a .env file first (e.g. .env.local)
                        (not --env-file: Node 20 takes that option for itself wherever it appears)
  --json                print the findings as JSON
`;

/**
 * `upload-server doctor`: runs {@link diagnoseUploadConfig} with the `S3_UPLOAD_*` environment variables and
 * prints the findings. Exit code: 0 without a `fail`, 1 with one.
 */
export async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      origin: { type: 'string' },
      'temporary-token': { type: 'boolean' },
      'key-prefix': { type: 'string' },
      dotenv: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (values.dotenv !== undefined) process.loadEnvFile(values.dotenv);
  const findings = await diagnoseUploadConfig({
    origin: values.origin,
    temporaryToken: values['temporary-token'],
    keyPrefix: values['key-prefix'],
  });
  process.stdout.write(`${values.json ? JSON.stringify(findings, null, 2) : formatFindings(findings)}\n`);
  return findings.some((finding) => finding.status === 'fail') ? 1 : 0;
}
