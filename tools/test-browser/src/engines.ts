/** The three browser engines the suites run in. */
export const ALL_ENGINES = ['chromium', 'firefox', 'webkit'] as const;

/** A browser engine: Debian's chromium, Firefox ESR, or WebKitGTK. */
export type Engine = (typeof ALL_ENGINES)[number];

/**
 * Engines the per-engine suites run in: every one, or those listed in `UPBEAM_BROWSERS` (comma-separated,
 * e.g. `UPBEAM_BROWSERS=firefox` while working on a Firefox failure).
 */
export const ENGINES: readonly Engine[] = selectedEngines(process.env.UPBEAM_BROWSERS);

function selectedEngines(list: string | undefined): readonly Engine[] {
  if (!list) return ALL_ENGINES;
  const names = list.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!ALL_ENGINES.includes(name as Engine)) {
      throw new Error(`UPBEAM_BROWSERS: unknown engine "${name}" (known: ${ALL_ENGINES.join(', ')})`);
    }
  }
  return names as Engine[];
}

/** Debian's chromium (`apt-get install chromium`); `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Debian's Firefox ESR (`apt-get install firefox-esr`); `FIREFOX_PATH` overrides it. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** WebKitGTK's WebDriver (`apt-get install webkit2gtk-driver`); `WEBKIT_DRIVER_PATH` overrides it. */
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
