import assert from 'node:assert/strict';
import { type Browser, chromium } from 'playwright-core';
import { findChromium, INSTALL_HINT } from '../../scripts/chromium.js';

/**
 * Headless Debian Chromium for browser tests, with the flags this machine needs (no sandbox as
 * root, no GPU, no background connections: the network is closed). A missing Chromium fails the
 * test with how to install it; it is never skipped.
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = findChromium();
  assert.ok(executablePath !== undefined, INSTALL_HINT);
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}
