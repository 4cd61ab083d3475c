import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Real Git repositories made by the tests with the `git` command (no mocks of Git): files
 * written, committed, and the commit's id returned. `root` is the directory to list in
 * GIT_LOCAL_DIRS; `dir` the repository inside it.
 */
export class TestRepo {
  readonly root = mkdtempSync(join(tmpdir(), 'livery-git-test-'));
  readonly dir = join(this.root, 'docs-repo');

  constructor() {
    mkdirSync(this.dir);
    this.git('init', '-q', '-b', 'main');
    this.git('config', 'user.email', 'writer@example.test');
    this.git('config', 'user.name', 'Writer');
    this.git('config', 'commit.gpgsign', 'false');
  }

  git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.root, GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();
  }

  /** Writes files (path → text or bytes; null deletes) and commits them; the commit's id. */
  commit(files: Record<string, string | Buffer | null>, message = 'Update docs'): string {
    for (const [path, content] of Object.entries(files)) {
      const full = join(this.dir, path);
      if (content === null) {
        rmSync(full, { force: true });
        continue;
      }
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  /** A symbolic link committed as such (Git mode 120000). */
  link(path: string, target: string): void {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    symlinkSync(target, join(this.dir, path));
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A 1×1 PNG of `width`×`height` as its header says (enough for dimensions). */
export function pngOf(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(33);
  bytes.writeUInt32BE(0x89504e47, 0);
  bytes.writeUInt32BE(0x0d0a1a0a, 4);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}
