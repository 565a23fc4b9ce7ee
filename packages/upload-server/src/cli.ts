#!/usr/bin/env node
/**
 * `npx @upbeam/upload-server <command>`:
 * - `doctor [--origin URL] [--temporary-token] [--key-prefix P] [--dotenv F] [--json]` checks the settings
 *   against the real bucket (`commands/doctor.ts`);
 * - `reconcile --config MODULE [--apply] [--older-than S] [--max-requests N] [--max-seconds S] ...` completes
 *   the uploads no page reported (`commands/reconcile.ts`), printing JSON.
 * Exit code: 0, 1 for a failed finding or object, 2 for a usage or settings error.
 */
import { doctorCommand, DOCTOR_USAGE } from './commands/doctor';
import { reconcileCommand, RECONCILE_USAGE } from './commands/reconcile';

const COMMANDS: Record<string, { run: (args: string[]) => Promise<number>; usage: string }> = {
  doctor: { run: doctorCommand, usage: DOCTOR_USAGE },
  reconcile: { run: reconcileCommand, usage: RECONCILE_USAGE },
};

async function main([name, ...args]: string[]): Promise<number> {
  const command = name === undefined ? undefined : COMMANDS[name];
  const help = [name, ...args].some((arg) => arg === '--help' || arg === '-h');
  if (!command || help) {
    process.stdout.write(command ? command.usage : Object.values(COMMANDS).map((known) => known.usage).join('\n'));
    return help ? 0 : 2;
  }
  return command.run(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`upload-server ${process.argv[2]}: ${error.message}\n`);
    process.exitCode = 2;
  },
);
