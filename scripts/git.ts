import { spawnSync } from 'node:child_process';

const INSTALL_HINT =
  "git was not found. Install Debian's package: `apt-get install git` (npm test does it when run as root).";

/**
 * For `npm test`: makes sure the `git` command is there (Git Sync imports run it, and its tests
 * make real repositories with it), installing Debian's package when it is missing and this
 * process may (root, apt-get present). Says what it did; never fails the run itself: the Git
 * tests fail, loudly, when there is still no git.
 */
export function ensureGit(log: (line: string) => void): string | undefined {
  const version = () => {
    const run = spawnSync('git', ['--version'], { encoding: 'utf8' });
    return run.status === 0 ? run.stdout.trim() : undefined;
  };
  const found = version();
  if (found !== undefined) return found;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!root || !apt) {
    log(`git: ${INSTALL_HINT}`);
    return undefined;
  }
  log("git: not found; installing Debian's git (apt-get install git)");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install =
    update.status === 0
      ? spawnSync('apt-get', ['install', '-y', '-qq', 'git'], { stdio: 'inherit', env })
      : update;
  if (install.status !== 0) log(`git: apt-get failed (exit ${install.status}). ${INSTALL_HINT}`);
  return version();
}
