import { once } from 'node:events';
import { GitError, killGroup, spawnGit } from './git-process.js';

/**
 * Blobs read through one `git cat-file --batch` process, however many there are (a process per
 * file costs about a millisecond each: seconds on a large repository). The output is parsed as
 * it comes and each blob handed over before the next is read, so memory holds one blob (and a
 * pipe's worth) at a time.
 */
export interface Blob {
  oid: string;
  data: Buffer;
}

export interface BlobOptions {
  /** For the whole stream. */
  timeoutMs?: number;
  /** Stops the stream (kills the process) when aborted. */
  signal?: AbortSignal;
}

export async function* streamBlobs(
  dir: string,
  oids: Iterable<string>,
  options: BlobOptions = {},
): AsyncGenerator<Blob> {
  const wanted = [...oids];
  if (wanted.length === 0) return;
  for (const oid of wanted) {
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid))
      throw new GitError('failed', `not an object id: ${oid}`);
  }
  const child = spawnGit(['--git-dir', dir, 'cat-file', '--batch'], []);
  let failure: GitError | undefined;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4096);
  });
  const timeoutMs = options.timeoutMs ?? 600_000;
  const timer = setTimeout(() => {
    failure = new GitError('timeout', `git cat-file took more than ${timeoutMs} ms`);
    killGroup(child.pid);
  }, timeoutMs);
  const aborted = () => {
    failure ??= new GitError('failed', 'git cat-file was stopped');
    killGroup(child.pid);
  };
  if (options.signal?.aborted === true) aborted();
  else options.signal?.addEventListener('abort', aborted, { once: true });
  // 'error' when git could not be started: then no 'close' may come.
  const exited = new Promise((done) => {
    child.once('close', done);
    child.once('error', done);
  });
  void feed(child.stdin, wanted);
  const reader = new ChunkReader(child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  try {
    for (const oid of wanted) {
      const header = (await reader.line())?.toString('utf8');
      if (header === undefined)
        throw failure ?? new GitError('failed', `git cat-file ended early: ${stderr}`);
      const [gotOid, type, size] = header.split(' ');
      if (type === 'missing' || gotOid !== oid || size === undefined) {
        throw new GitError('failed', `object ${oid} is not in the repository (${header})`);
      }
      const data = await reader.bytes(Number(size) + 1);
      if (data === undefined) throw failure ?? new GitError('failed', 'git cat-file ended early');
      yield { oid, data: data.subarray(0, data.length - 1) };
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', aborted);
    // Ended early (an error, or the consumer stopped): the process has nothing more to do.
    killGroup(child.pid);
    // The unread end of stdout would keep the process's 'close' from ever coming.
    child.stdout.destroy();
    child.stdin.destroy();
    await exited;
  }
}

/** All blobs in a map: for small sets (configuration files); pages go through streamBlobs. */
export async function readBlobs(
  dir: string,
  oids: Iterable<string>,
  options: BlobOptions = {},
): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  for await (const blob of streamBlobs(dir, new Set(oids), options)) blobs.set(blob.oid, blob.data);
  return blobs;
}

/** Writes the ids, waiting for the pipe to drain, so that a long list never fills memory. */
async function feed(stdin: NodeJS.WritableStream, oids: string[]): Promise<void> {
  stdin.on('error', () => {});
  for (const oid of oids) {
    if (!stdin.write(`${oid}\n`)) {
      const drained = await Promise.race([
        once(stdin, 'drain').then(() => true),
        once(stdin, 'close').then(() => false),
      ]);
      if (!drained) return;
    }
  }
  stdin.end();
}

/** Lines and sized records out of a stream of chunks. */
class ChunkReader {
  private buffered: Buffer[] = [];
  private length = 0;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async more(): Promise<boolean> {
    const next = await this.source.next();
    if (next.done === true) return false;
    this.buffered.push(next.value);
    this.length += next.value.length;
    return true;
  }

  /** The next line without its `\n`, or undefined at the end. */
  async line(): Promise<Buffer | undefined> {
    for (let scanned = 0; ; ) {
      const joined = this.joined();
      const end = joined.indexOf(10, scanned);
      if (end >= 0) return this.take(end + 1).subarray(0, end);
      scanned = joined.length;
      if (!(await this.more())) return undefined;
    }
  }

  /** The next `count` bytes, or undefined at the end. */
  async bytes(count: number): Promise<Buffer | undefined> {
    while (this.length < count) if (!(await this.more())) return undefined;
    return this.take(count);
  }

  private joined(): Buffer {
    if (this.buffered.length > 1) this.buffered = [Buffer.concat(this.buffered, this.length)];
    return this.buffered[0] ?? Buffer.alloc(0);
  }

  private take(count: number): Buffer {
    const all = this.joined();
    const rest = all.subarray(count);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return all.subarray(0, count);
  }
}
