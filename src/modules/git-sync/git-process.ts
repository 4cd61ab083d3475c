import { spawn } from 'node:child_process';
import { redactUrl } from './repository-url.js';

/**
 * One `git` process: no shell, no prompt, no user or system configuration, a time limit that
 * kills the whole process group (git runs helpers: `git-remote-https`, `ssh`), and caps on what is
 * kept of its output. Failures become a GitError with a reason the import can report; git's
 * stderr is kept only with credentials redacted.
 */
export type GitFailure =
  | 'unreachable'
  | 'authentication'
  | 'unknown-ref'
  | 'not-a-repository'
  | 'timeout'
  | 'output-too-large'
  /** A push the remote refused because the branch moved on (not a fast-forward). */
  | 'push-rejected'
  | 'failed';

export class GitError extends Error {
  constructor(
    readonly reason: GitFailure,
    message: string,
    /** git's stderr, credentials redacted, at most its last 4 KiB. */
    readonly stderr = '',
  ) {
    super(redactUrl(message));
    this.name = 'GitError';
  }
}

export interface RunOptions {
  timeoutMs?: number;
  /** The most stdout kept; more fails the run with `output-too-large`. */
  maxStdout?: number;
  /** `-c` settings for this run only. */
  config?: readonly string[];
  /** What the process reads on stdin. */
  input?: string | Buffer;
  /** Exit codes that are answers, not failures (`merge-tree` exits 1 on conflicts). */
  okExit?: readonly number[];
  /** Stops the run (its whole process group) when aborted: a server stopping, a timeout. */
  signal?: AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
const STDERR_KEPT = 4096;

/**
 * Settings that hold for every run. Protocols other than https and ssh are off (`file` is
 * turned on per run, for the local repositories the URL policy allowed); redirects are not
 * followed, since one could lead to a host the URL policy refused (a renamed GitHub repository
 * then fails with a clear error, and its new URL works); hooks never run; memory is bounded.
 */
const BASE_CONFIG = [
  'protocol.allow=never',
  'protocol.https.allow=always',
  'protocol.ssh.allow=always',
  'http.followRedirects=false',
  'core.symlinks=false',
  'core.hooksPath=/dev/null',
  'credential.helper=',
  // Git maps pack files in windows of up to 1 GiB: these bounds cut cat-file's resident memory
  // on a 260 MiB repository from 207 to 74 MiB at the same speed (measured).
  'core.packedGitLimit=64m',
  'core.packedGitWindowSize=16m',
  'core.askPass=',
];

/**
 * The environment git gets: enough to find programs and ssh keys, never a terminal prompt, and
 * the C locale so that its messages can be classified.
 */
function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/true',
    SSH_ASKPASS: '/bin/true',
    GCM_INTERACTIVE: 'never',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // The operator's ssh setup is used (keys, known_hosts), never interactively.
    GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes',
  };
  for (const name of ['HOME', 'SSH_AUTH_SOCK', 'TMPDIR'] as const) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Runs `git <args>` and gives its stdout, or throws a GitError. */
export function runGit(args: readonly string[], options: RunOptions = {}): Promise<Buffer> {
  const child = spawnGit(args, options.config ?? []);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxStdout = options.maxStdout ?? 1 << 20;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: GitError | undefined;
    const stop = (error: GitError) => {
      failure ??= error;
      killGroup(child.pid);
    };
    const timer = setTimeout(
      () => stop(new GitError('timeout', `git ${commandOf(args)} took more than ${timeoutMs} ms`)),
      timeoutMs,
    );
    const aborted = () => stop(new GitError('failed', `git ${commandOf(args)} was stopped`));
    if (options.signal?.aborted === true) aborted();
    else options.signal?.addEventListener('abort', aborted, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxStdout)
        stop(
          new GitError(
            'output-too-large',
            `git ${commandOf(args)}: output over ${maxStdout} bytes`,
          ),
        );
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    child.on('error', (error) => {
      // Git could not be started: there may be no 'close' to wait for.
      clearTimeout(timer);
      reject(new GitError('failed', `git could not run: ${error.message}`));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', aborted);
      if (failure !== undefined) reject(failure);
      else if (code === 0 || (code !== null && options.okExit?.includes(code) === true))
        resolve(Buffer.concat(chunks));
      else reject(classify(args, stderr));
    });
  });
}

/** Spawns git in its own process group (killable as a whole), stdio piped. */
export function spawnGit(args: readonly string[], config: readonly string[]) {
  const settings = [...BASE_CONFIG, ...config].flatMap((setting) => ['-c', setting]);
  return spawn('git', [...settings, ...args], {
    env: environment(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
}

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

const RULES: [GitFailure, RegExp][] = [
  // Before the others: a refused push names the remote too. A push that lost a race for the
  // branch's lock is refused the same way (the branch moved meanwhile): fetched again, retried.
  [
    'push-rejected',
    /\[rejected\].*\((fetch first|non-fast-forward|stale info)\)|Updates were rejected because|\[remote rejected\].*\((cannot lock ref|failed to update ref|incorrect old value)/i,
  ],
  [
    'unknown-ref',
    /couldn't find remote ref|not our ref|no such ref|bad revision|unknown revision|invalid refspec|Needed a single revision|not a valid object name/i,
  ],
  [
    'authentication',
    /Authentication failed|could not read (Username|Password)|terminal prompts disabled|Permission denied \(|Access denied|returned error: 40[13]|Host key verification failed/i,
  ],
  [
    'not-a-repository',
    /not a git repository|does not appear to be a git repository|repository '.*' not found|Repository not found|returned error: 404|not valid: is this a git repository/i,
  ],
  [
    'unreachable',
    /Could not resolve host|Failed to connect|Connection refused|Connection timed out|Network is unreachable|No route to host|Could not resolve hostname|Connection reset|SSL|TLS|ssh: connect to host|Couldn't connect/i,
  ],
];

/** A failed run's reason, read from git's (C locale) stderr. */
export function classify(args: readonly string[], stderr: string): GitError {
  const kept = redactUrl(stderr.trim());
  const rule = RULES.find(([, pattern]) => pattern.test(kept));
  const reason = rule?.[0] ?? 'failed';
  // The line that says why (git's advice after it, "and the repository exists.", says nothing).
  const lines = kept.split('\n').filter((line) => line.trim() !== '');
  const line =
    (rule === undefined ? undefined : lines.find((l) => rule[1].test(l))) ??
    lines.findLast((l) => /^(fatal|error):/.test(l)) ??
    lines.at(-1) ??
    '';
  return new GitError(reason, `git ${commandOf(args)} failed (${reason}): ${line}`, kept);
}

/** The subcommand, for messages: the first argument that is not `--git-dir <dir>` or an option. */
function commandOf(args: readonly string[]): string {
  const at = args[0] === '--git-dir' ? 2 : 0;
  return args.slice(at).find((arg) => !arg.startsWith('-')) ?? 'command';
}
