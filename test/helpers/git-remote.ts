import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A bare repository standing for a remote (GitHub, GitLab…), and a working clone of it where the
 * test plays the writer who pushes. Real `git` throughout: Livery fetches from and pushes to the
 * bare repository by its file:// URL (`url`); `root` is the directory for GIT_LOCAL_DIRS.
 */
export class TestRemote {
  readonly root = mkdtempSync(join(tmpdir(), 'livery-git-remote-'));
  readonly bare = join(this.root, 'remote.git');
  readonly work = join(this.root, 'work');
  readonly url = `file://${this.bare}`;

  constructor(branch = 'main') {
    this.run(this.root, 'init', '-q', '--bare', '-b', branch, this.bare);
    this.run(this.root, 'clone', '-q', this.bare, this.work);
    this.run(this.work, 'checkout', '-q', '-B', branch);
  }

  private run(cwd: string, ...args: string[]): string {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: this.root,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Writer',
        GIT_AUTHOR_EMAIL: 'writer@example.test',
        GIT_COMMITTER_NAME: 'Writer',
        GIT_COMMITTER_EMAIL: 'writer@example.test',
      },
    }).trim();
  }

  /** git in the bare repository. */
  git(...args: string[]): string {
    return this.run(this.bare, ...args);
  }

  /** Writes files (null deletes), commits on top of the remote's branch and pushes: the commit. */
  push(
    files: Record<string, string | Buffer | null>,
    message = 'Update docs',
    branch = 'main',
  ): string {
    this.pull(branch);
    for (const [path, content] of Object.entries(files)) {
      const full = join(this.work, path);
      if (content === null) rmSync(full, { force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
    }
    this.run(this.work, 'add', '-A');
    this.run(this.work, 'commit', '-q', '--allow-empty', '-m', message);
    this.run(this.work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
    return this.run(this.work, 'rev-parse', 'HEAD');
  }

  /** The working clone at the remote's branch (created from nothing when the remote has none). */
  pull(branch = 'main'): void {
    const has = this.git('branch', '--list', branch) !== '';
    if (!has) {
      this.run(this.work, 'checkout', '-q', '--orphan', `tmp-${Date.now()}`);
      this.run(this.work, 'rm', '-rfq', '--ignore-unmatch', '.');
      this.run(this.work, 'checkout', '-q', '-B', branch);
      return;
    }
    this.run(this.work, 'fetch', '-q', 'origin');
    this.run(this.work, 'checkout', '-q', '-B', branch, `origin/${branch}`);
    this.run(this.work, 'reset', '-q', '--hard', `origin/${branch}`);
  }

  /** The branch's head commit on the remote; undefined when it has none. */
  head(branch = 'main'): string | undefined {
    try {
      return this.git('rev-parse', '--verify', '--quiet', `refs/heads/${branch}`);
    } catch {
      return undefined;
    }
  }

  /** A file at the remote's branch, or undefined. */
  file(path: string, branch = 'main'): string | undefined {
    try {
      return execFileSync('git', ['--git-dir', this.bare, 'show', `refs/heads/${branch}:${path}`], {
        encoding: 'utf8',
      });
    } catch {
      return undefined;
    }
  }

  /** Every file path at the remote's branch. */
  files(branch = 'main'): string[] {
    const out = this.git('ls-tree', '-r', '--name-only', `refs/heads/${branch}`);
    return out === '' ? [] : out.split('\n');
  }

  /** The number of commits on the branch. */
  count(branch = 'main'): number {
    return Number(this.git('rev-list', '--count', `refs/heads/${branch}`));
  }

  /** The branch's latest commit message. */
  message(branch = 'main'): string {
    return this.git('log', '-1', '--format=%B', `refs/heads/${branch}`).trim();
  }

  /** Writes a file in the working clone without committing (for conflicts made by hand). */
  write(path: string, content: string): void {
    writeFileSync(join(this.work, path), content);
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
