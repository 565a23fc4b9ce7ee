/**
 * @module
 * A real headless browser for the tests: Debian's chromium (`apt-get install -y chromium`) driven by
 * playwright-core. Never downloads a browser of its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Path of the browser; `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for headless chromium here: keep it off the network it cannot reach (background networking,
 * component updates, sync, QUIC) and let it run as root in a container.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

export { openPage, progressSeen } from './page';

/** A browser context with a fresh profile; `close()` ends the browser and removes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless chromium with a fresh profile. The flags keep it off the network it cannot reach here
 * (background networking, component updates, sync) and make it run as root in a container.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'upbeam-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
