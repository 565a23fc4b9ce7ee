// The public API on purpose: an API Extractor report (api/<package>[-<subpath>].api.md) of every entry point
// that a published package's exports map lists, read from the built declaration files (run `pnpm run build`
// first). An added, removed or changed export is then a visible diff in review. A subpath's report does not
// flag a type its signatures use that another entry point of the same package exports (`UploadHandler`, used
// by `@upbeam/upload-server/next`, exported by `@upbeam/upload-server`): users name it from there.
//
//   node scripts/api-report.mjs           writes the reports (pnpm run api:update)
//   node scripts/api-report.mjs --check   fails, with a diff, when a report differs from the build (pnpm run api:check)
//   node scripts/api-report.mjs --count   prints the number of exported names (values, types) per entry point
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Runs API Extractor on one entry, writing its report into `tempFolder` (without the warnings of
 * {@link withoutSiblingExports}); returns whether the report in api/ matches it.
 */
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
  // Never written into api/ by API Extractor: this script compares and copies the filtered report itself.
  const result = Extractor.invoke(config, { localBuild: false, messageCallback: quiet });
  if (result.errorCount > 0) throw new Error(`${entry.name}: API Extractor reported ${result.errorCount} error(s)`);
  const file = `${entry.reportName}.api.md`;
  const text = withoutSiblingExports(readFileSync(join(tempFolder, file), 'utf8'), siblingExports(entry));
  writeFileSync(join(tempFolder, file), text);
  const wanted = join(reportFolder, file);
  return existsSync(wanted) && readFileSync(wanted, 'utf8') === text;
}

/**
 * API Extractor's informational lines ("Analysis will use the bundled TypeScript version...") and its lines
 * about the report file (this script compares and copies it) are left out.
 */
function quiet(message) {
  if (message.logLevel === 'info' || message.logLevel === 'verbose') message.handled = true;
  if (message.messageId.startsWith('console-api-report')) message.handled = true;
}

/** The names the other entry points of `entry`'s package export. */
function siblingExports(entry) {
  const siblings = entries.filter((other) => other.packageDir === entry.packageDir && other !== entry);
  return new Set(siblings.flatMap((sibling) => exportsOf(sibling).map((symbol) => symbol.name)));
}

/**
 * A report without its `ae-forgotten-export` warnings for the names in `exported`, and without the lone `//`
 * that closes a block of warnings when none is left above it.
 */
function withoutSiblingExports(text, exported) {
  const kept = text.split('\n').filter((line) => {
    const forgotten = /^\s*\/\/ Warning: \(ae-forgotten-export\) The symbol "([^"]+)"/.exec(line);
    return !(forgotten && exported.has(forgotten[1]));
  });
  return kept.filter((line, i) => line.trim() !== '//' || /^\s*\/\/ Warning:/.test(kept[i - 1] ?? '')).join('\n');
}

/** The exported symbols of one built entry, each with what it names (its alias resolved: `export { x } from`). */
function exportsOf(entry) {
  const { options } = ts.convertCompilerOptionsFromJson(compilerOptions, entry.packageDir);
  const program = ts.createProgram([entry.declarationFile], { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry.declarationFile));
  return (module ? checker.getExportsOfModule(module) : []).map((symbol) => ({
    name: symbol.name,
    target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
  }));
}

/** Exported names of one built entry: `[values, types]` (a class counts as a value). */
function countExports(entry) {
  const symbols = exportsOf(entry);
  const values = symbols.filter(({ target }) => target.flags & ts.SymbolFlags.Value).length;
  return [values, symbols.length - values];
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
    for (const entry of stale) copyFileSync(join(tempFolder, `${entry.reportName}.api.md`), join(reportFolder, `${entry.reportName}.api.md`));
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
