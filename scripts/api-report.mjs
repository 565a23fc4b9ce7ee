// The public API on purpose: an API Extractor report (api/<package>[-<subpath>].api.md) of every entry point
// that a published package's exports map lists, read from the built declaration files (run `pnpm run build`
// first). An added, removed or changed export is then a visible diff in review.
//
//   node scripts/api-report.mjs           writes the reports (pnpm run api:update)
//   node scripts/api-report.mjs --check   fails, with a diff, when a report differs from the build (pnpm run api:check)
//   node scripts/api-report.mjs --count   prints the number of exported names (values, types) per entry point
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import ts from 'typescript';
import { entryPoints } from './entry-points.mjs';

const root = join(import.meta.dirname, '..');
const reportFolder = join(root, 'api');
const mode = process.argv[2] ?? '--update';
if (!['--update', '--check', '--count'].includes(mode)) {
  console.error(`api-report: unknown option ${mode} (known: --check --count)`);
  process.exit(2);
}

const compilerOptions = {
  target: 'es2022',
  module: 'esnext',
  moduleResolution: 'bundler',
  lib: ['es2022', 'dom', 'dom.iterable'],
  types: [],
  jsx: 'react-jsx',
  strict: true,
  skipLibCheck: true,
};

/** Runs API Extractor on one entry; returns whether its report matches (check) or was written (update). */
function report(entry, tempFolder) {
  if (!existsSync(entry.declarationFile)) {
    throw new Error(`${entry.name}: ${entry.declarationFile} does not exist: run \`pnpm run build\` first`);
  }
  const config = ExtractorConfig.prepare({
    configObjectFullPath: join(entry.packageDir, 'api-extractor.json'),
    packageJsonFullPath: join(entry.packageDir, 'package.json'),
    configObject: {
      projectFolder: entry.packageDir,
      mainEntryPointFilePath: entry.declarationFile,
      compiler: { overrideTsconfig: { compilerOptions, files: [entry.declarationFile] } },
      apiReport: { enabled: true, reportFolder, reportTempFolder: tempFolder, reportFileName: entry.reportName },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        // A type the entry uses but does not export is noted in the report, where review sees it.
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          // The packages mark no release stages (@public, @beta): every export is public.
          'ae-missing-release-tag': { logLevel: 'none' },
          // Its lines name the built chunk files (hashed names) and line numbers: noise on every rebuild.
          'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
        },
        // TSDoc style is not what the report is for.
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
  });
  const result = Extractor.invoke(config, { localBuild: mode === '--update', messageCallback: quietInfo });
  if (result.errorCount > 0) throw new Error(`${entry.name}: API Extractor reported ${result.errorCount} error(s)`);
  return !result.apiReportChanged;
}

/** API Extractor's informational lines ("Analysis will use the bundled TypeScript version...") are left out. */
function quietInfo(message) {
  if (message.logLevel === 'info' || message.logLevel === 'verbose') message.handled = true;
}

/** Exported names of one built entry: `[values, types]` (a class counts as a value). */
function countExports(entry) {
  const { options } = ts.convertCompilerOptionsFromJson(compilerOptions, entry.packageDir);
  const program = ts.createProgram([entry.declarationFile], { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry.declarationFile));
  let values = 0;
  let types = 0;
  for (const symbol of module ? checker.getExportsOfModule(module) : []) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (target.flags & ts.SymbolFlags.Value) values += 1;
    else types += 1;
  }
  return [values, types];
}

const entries = entryPoints(root);
if (mode === '--count') {
  let total = [0, 0];
  console.log('| entry point | names | values | types |\n|---|---:|---:|---:|');
  for (const entry of entries) {
    const [values, types] = countExports(entry);
    total = [total[0] + values, total[1] + types];
    console.log(`| \`${entry.name}\` | ${values + types} | ${values} | ${types} |`);
  }
  console.log(`| all ${entries.length} entry points | ${total[0] + total[1]} | ${total[0]} | ${total[1]} |`);
  process.exit(0);
}

const tempFolder = mkdtempSync(join(tmpdir(), 'upbeam-api-'));
try {
  const stale = entries.filter((entry) => !report(entry, tempFolder));
  const known = new Set(entries.map((entry) => `${entry.reportName}.api.md`));
  const orphaned = readdirSync(reportFolder).filter((file) => file.endsWith('.api.md') && !known.has(file));
  if (mode === '--update') {
    for (const file of orphaned) rmSync(join(reportFolder, file));
    console.log(`api-report: ${entries.length} reports in api/ (${stale.length} changed, ${orphaned.length} removed)`);
  } else {
    for (const entry of stale) {
      const file = `${entry.reportName}.api.md`;
      const wanted = join(reportFolder, file);
      try {
        execFileSync('diff', ['-u', existsSync(wanted) ? wanted : '/dev/null', join(tempFolder, file)], { stdio: 'inherit' });
      } catch {
        // diff exits 1 when the files differ: its output is the point.
      }
    }
    if (stale.length > 0 || orphaned.length > 0) {
      const names = [...stale.map((entry) => entry.name), ...orphaned.map((file) => `api/${file} (no such entry)`)];
      console.error(`api-report: the API differs from api/*.api.md for ${names.join(', ')}.`);
      console.error('If the change is meant, run `pnpm run build && pnpm run api:update` and commit api/ (and a changeset).');
      process.exit(1);
    }
    console.log(`api-report: ${entries.length} reports in api/ match the build`);
  }
} finally {
  rmSync(tempFolder, { recursive: true, force: true });
}
