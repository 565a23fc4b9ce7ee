import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebDriverSession } from '../tools/test-browser/src/webdriver-session';

// WebKitWebDriver under load sometimes never answers one command. A hung driver cannot be made on demand,
// so a stub stands in for it here: an HTTP server on 127.0.0.1 that takes each request and never answers.
// The real driver is covered by every WebKit e2e suite.

let stub: Server;
let driverUrl: string;

beforeAll(async () => {
  stub = createServer(() => {
    // Never answers.
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const address = stub.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  driverUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  stub.closeAllConnections();
  await new Promise((resolve) => stub.close(resolve));
});

describe('WebDriverSession command timeout (stub driver that never answers)', () => {
  it('fails a command the driver does not answer in time, naming the command', async () => {
    const creating = WebDriverSession.create(driverUrl, {}, { commandTimeoutMs: 200 });
    await expect(creating).rejects.toMatchObject({
      name: 'WebDriverError',
      code: 'timeout',
      message: 'timeout: WebKitWebDriver did not answer New Session (POST /session) within 200 ms.',
    });
  });
});
