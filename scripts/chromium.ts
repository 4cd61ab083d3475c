import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/**
 * Where the browser tests find Chromium: Debian's package (never a downloaded browser).
 * `CHROMIUM_PATH` overrides. /usr/bin/chromium is Debian's wrapper script; the binary behind it
 * is started directly, so the wrapper's environment checks cannot get in the way.
 */
const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
].filter((path): path is string => path !== undefined && path !== '');

export const INSTALL_HINT =
  "Chromium was not found. Install Debian's package: `apt-get install chromium` (npm test does it when run as root), or set CHROMIUM_PATH to a Chromium binary.";

export function findChromium(): string | undefined {
  for (const path of CANDIDATES) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * For `npm test`: makes sure Chromium is there, installing Debian's package when it is missing
 * and this process may (root, apt-get present). Says what it did; never fails the run itself —
 * the browser tests fail, loudly and with INSTALL_HINT, when there is still no Chromium.
 */
export function ensureChromium(log: (line: string) => void): string | undefined {
  const found = findChromium();
  if (found !== undefined) return found;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!root || !apt) {
    log(`chromium: ${INSTALL_HINT}`);
    return undefined;
  }
  log("chromium: not found; installing Debian's chromium (apt-get install chromium)");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install =
    update.status === 0
      ? spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env })
      : update;
  if (install.status !== 0)
    log(`chromium: apt-get failed (exit ${install.status}). ${INSTALL_HINT}`);
  return findChromium();
}
