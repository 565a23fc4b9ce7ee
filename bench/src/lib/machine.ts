/** What a result was measured on: machine, software versions, commit, date. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from './paths';

/** The machine and software of one benchmark run. */
export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  commit: string;
  versions: Record<string, string>;
  /** 1-minute load average when the result was written (other work on the machine; 2 = both cores busy). */
  load?: number;
}

function command(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return undefined;
  }
}

/** Version of a package installed for the bench (read from its package.json, exports maps aside). */
export function packageVersion(name: string, from = BENCH_DIR): string {
  try {
    return (JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'not installed';
  }
}

function osName(): string {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(release)?.[1] ?? os.type();
  } catch {
    return os.type();
  }
}

/** Describes this machine, with the versions of the named packages. */
export function describeMachine(packages: string[], extra: Record<string, string | undefined> = {}): Machine {
  const dirty = command('git', ['-C', BENCH_DIR, 'status', '--porcelain', '--', '../packages']) ? ' (packages/ modified)' : '';
  const versions: Record<string, string> = {};
  for (const name of packages) versions[name] = packageVersion(name);
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) versions[name] = value;
  return {
    date: new Date().toISOString(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    os: `${osName()}, Linux ${os.release()}`,
    node: process.version,
    commit: `${command('git', ['-C', BENCH_DIR, 'rev-parse', '--short', 'HEAD']) ?? 'unknown'}${dirty}`,
    versions,
    load: Math.round(os.loadavg()[0]! * 10) / 10,
  };
}

/** First line of `file --version`, or undefined when it is not installed. */
export function toolVersion(file: string, args = ['--version']): string | undefined {
  return command(file, args)?.split('\n')[0];
}
