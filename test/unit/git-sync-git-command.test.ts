import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  commitInfo,
  fetchRef,
  GitError,
  isBinary,
  isLfsPointer,
  listTree,
  readBlobs,
  streamBlobs,
} from '../../src/modules/git-sync/git-command.js';
import { classify, runGit } from '../../src/modules/git-sync/git-process.js';
import { checkRepositoryUrl } from '../../src/modules/git-sync/repository-url.js';

/** Real repositories, made here with `git` (no mock of Git). */
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'livery-git-')));
after(() => rmSync(scratch, { recursive: true, force: true }));
const source = join(scratch, 'source');
const policy = { localDirs: [scratch], allowPrivate: true };
const location = () => checkRepositoryUrl(source, policy);

const LFS = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a2146\nsize 12345\n';
const BINARY = Buffer.from([0, 1, 2, 255, 10, 13, 0]);

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: source,
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Ada Writer',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_AUTHOR_DATE: '2026-01-02T03:04:05+01:00',
      GIT_COMMITTER_NAME: 'Ada Writer',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    },
  }).toString('utf8');
}

let first = '';
let second = '';
before(() => {
  mkdirSync(join(source, 'docs', 'many'), { recursive: true });
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(source, 'README.md'), '# Home\n');
  git('add', '.');
  git('commit', '--quiet', '-m', 'First');
  first = git('rev-parse', 'HEAD').trim();
  writeFileSync(join(source, 'docs', 'a page.md'), '# A\r\n\r\ntext\r\n');
  writeFileSync(join(source, 'docs', 'bin.dat'), BINARY);
  writeFileSync(join(source, 'docs', 'big.png'), LFS);
  for (let i = 0; i < 300; i++)
    writeFileSync(join(source, 'docs', 'many', `p${i}.md`), `# P${i}\n`);
  symlinkSync('../../../etc/passwd', join(source, 'docs', 'escape.md'));
  git('add', '.');
  // A submodule entry: a gitlink to a commit of another repository.
  git('update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},vendor/lib`);
  git('commit', '--quiet', '-m', 'Second\n\nWith a body.');
  second = git('rev-parse', 'HEAD').trim();
  git('tag', '-a', 'v1', '-m', 'Version 1', first);
  git('branch', 'other', first);
});

describe('fetchRef: one commit into a bare cache repository', () => {
  const refs: [string, () => string][] = [
    ['refs/heads/main', () => second],
    ['main', () => second],
    ['other', () => first],
    ['v1', () => first],
    ['refs/tags/v1', () => first],
    ['a commit id', () => first],
  ];
  for (const [ref, expected] of refs) {
    test(ref, async () => {
      const cache = join(scratch, `cache-${ref.replaceAll('/', '-').replaceAll(' ', '-')}`);
      const wanted = ref === 'a commit id' ? first : ref;
      assert.equal(await fetchRef(cache, location(), wanted), expected());
      // Shallow: the commit only, not its history.
      assert.equal(
        execFileSync('git', ['--git-dir', cache, 'rev-list', '--count', expected()])
          .toString()
          .trim(),
        '1',
      );
    });
  }
  test('a second fetch into the same cache', async () => {
    const cache = join(scratch, 'cache-twice');
    assert.equal(await fetchRef(cache, location(), 'other'), first);
    assert.equal(await fetchRef(cache, location(), 'main'), second);
  });

  const failures: [string, () => Promise<unknown>, string][] = [
    ['an unknown branch', () => fetchRef(join(scratch, 'c1'), location(), 'nope'), 'unknown-ref'],
    [
      'an unknown commit',
      () => fetchRef(join(scratch, 'c2'), location(), 'b'.repeat(40)),
      'unknown-ref',
    ],
    ['an invalid ref', () => fetchRef(join(scratch, 'c3'), location(), 'a..b'), 'unknown-ref'],
    [
      'an option as a ref',
      () => fetchRef(join(scratch, 'c4'), location(), '--upload-pack=x'),
      'unknown-ref',
    ],
    [
      'a directory that is not a repository',
      () => fetchRef(join(scratch, 'c5'), checkRepositoryUrl(join(scratch), policy), 'main'),
      'not-a-repository',
    ],
    [
      'a host that does not answer, credentials redacted',
      () =>
        fetchRef(
          join(scratch, 'c6'),
          checkRepositoryUrl('https://user:s3cret@127.0.0.1:9/r.git', policy),
          'main',
          {
            timeoutMs: 20_000,
          },
        ),
      'unreachable',
    ],
  ];
  for (const [rule, run, reason] of failures) {
    test(rule, async () => {
      await assert.rejects(run(), (error: unknown) => {
        assert.ok(error instanceof GitError, String(error));
        assert.equal(error.reason, reason, `${error.message}\n${error.stderr}`);
        assert.ok(!`${error.message}${error.stderr}`.includes('s3cret'));
        return true;
      });
    });
  }
  test('an https fetch is pinned to the checked addresses, whatever DNS says', async () => {
    const pinned = checkRepositoryUrl('https://pinned.invalid:9/r.git', policy);
    await assert.rejects(
      fetchRef(join(scratch, 'c7'), pinned, 'main', { addresses: ['127.0.0.1'] }),
      (error: unknown) =>
        error instanceof GitError &&
        error.reason === 'unreachable' &&
        // `.invalid` never resolves: connecting at all shows that the pinned address was used.
        !/resolve host/i.test(error.stderr) &&
        /connect/i.test(error.stderr),
    );
  });
  test('a time limit kills git and its children', async () => {
    const started = Date.now();
    await assert.rejects(
      runGit(['wait'], { config: ['alias.wait=!sleep 30'], timeoutMs: 300 }),
      (error: unknown) => error instanceof GitError && error.reason === 'timeout',
    );
    assert.ok(Date.now() - started < 5000);
  });
  test('no git on the PATH is a failure, not a hang', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(scratch, 'no-such-dir');
    try {
      await assert.rejects(
        runGit(['version']),
        (e: unknown) => e instanceof GitError && e.reason === 'failed',
      );
      await assert.rejects(
        readBlobs(scratch, ['d'.repeat(40)]),
        (e: unknown) => e instanceof GitError,
      );
    } finally {
      process.env.PATH = path;
    }
  });
  test('an output cap', async () => {
    await assert.rejects(
      runGit(['--git-dir', join(source, '.git'), 'cat-file', '-p', 'HEAD'], { maxStdout: 10 }),
      (error: unknown) => error instanceof GitError && error.reason === 'output-too-large',
    );
  });
});

describe('reading a fetched commit', () => {
  const cache = join(scratch, 'cache-read');
  before(async () => {
    await fetchRef(cache, location(), 'main');
  });
  test('commitInfo', async () => {
    assert.deepEqual(await commitInfo(cache, second), {
      oid: second,
      message: 'Second\n\nWith a body.',
      authorName: 'Ada Writer',
      authorEmail: 'ada@example.com',
      date: '2026-01-02T03:04:05+01:00',
    });
  });
  test('listTree names symbolic links and submodules', async () => {
    const entries = await listTree(cache, second);
    const byPath = new Map(entries.map((entry) => [entry.path, entry]));
    assert.equal(entries.length, 306);
    assert.deepEqual(
      { ...byPath.get('docs/a page.md'), oid: '' },
      { path: 'docs/a page.md', mode: '100644', oid: '', size: 13, type: 'file' },
    );
    assert.equal(byPath.get('docs/escape.md')?.type, 'symlink');
    assert.equal(byPath.get('docs/escape.md')?.mode, '120000');
    assert.deepEqual(byPath.get('vendor/lib'), {
      path: 'vendor/lib',
      mode: '160000',
      oid: 'a'.repeat(40),
      type: 'submodule',
    });
  });
  test('blobs, binary and CRLF bytes exact; a symbolic link is its target text only', async () => {
    const entries = await listTree(cache, second);
    const oidOf = (path: string) => entries.find((entry) => entry.path === path)?.oid ?? '';
    const blobs = await readBlobs(
      cache,
      entries.filter((e) => e.type !== 'submodule').map((e) => e.oid),
    );
    assert.equal(blobs.get(oidOf('docs/a page.md'))?.toString(), '# A\r\n\r\ntext\r\n');
    assert.deepEqual(blobs.get(oidOf('docs/bin.dat')), BINARY);
    assert.equal(blobs.get(oidOf('docs/escape.md'))?.toString(), '../../../etc/passwd');
    assert.equal(blobs.get(oidOf('docs/many/p299.md'))?.toString(), '# P299\n');
    const lfs = blobs.get(oidOf('docs/big.png'));
    assert.ok(lfs !== undefined && isLfsPointer(lfs));
    assert.ok(!isLfsPointer(Buffer.from('# A\n')));
    assert.ok(isBinary(BINARY) && !isBinary(Buffer.from('# A\r\n')));
  });
  test('a stream can be left early', async () => {
    const entries = await listTree(cache, second);
    let count = 0;
    for await (const blob of streamBlobs(
      cache,
      entries.filter((e) => e.type === 'file').map((e) => e.oid),
    )) {
      assert.ok(blob.data.length > 0);
      if (++count === 3) break;
    }
    assert.equal(count, 3);
  });
  test('a missing object is an error', async () => {
    await assert.rejects(readBlobs(cache, ['c'.repeat(40)]), (e: unknown) => e instanceof GitError);
  });
});

describe('classify: git messages into reasons', () => {
  const rows: [string, string][] = [
    [
      "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
      'authentication',
    ],
    [
      "remote: Invalid username or password.\nfatal: Authentication failed for 'https://***@github.com/a/b.git/'",
      'authentication',
    ],
    [
      'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.',
      'authentication',
    ],
    [
      "remote: Repository not found.\nfatal: repository 'https://github.com/a/b.git/' not found",
      'not-a-repository',
    ],
    [
      "fatal: unable to access 'https://nowhere.example/': Could not resolve host: nowhere.example",
      'unreachable',
    ],
    ['ssh: connect to host example.com port 22: Connection refused', 'unreachable'],
    ["fatal: couldn't find remote ref refs/heads/nope", 'unknown-ref'],
    ['error: something else', 'failed'],
  ];
  for (const [stderr, reason] of rows) {
    test(reason, () => assert.equal(classify(['fetch'], stderr).reason, reason));
  }
  test('the message quotes the line that says why, not the advice after it', () => {
    const error = classify(
      ['fetch'],
      'ssh: connect to host 127.0.0.1 port 1: Connection refused\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n',
    );
    assert.equal(error.reason, 'unreachable');
    assert.match(error.message, /: ssh: connect to host 127\.0\.0\.1 port 1: Connection refused$/);
    const other = classify(['fetch'], 'fatal: something odd\nhint: try this\n');
    assert.match(other.message, /: fatal: something odd$/);
  });
  test('credentials never reach the message', () => {
    const error = classify(
      ['fetch'],
      "fatal: unable to access 'https://u:s3cret@h/': Failed to connect",
    );
    assert.ok(!error.message.includes('s3cret') && !error.stderr.includes('s3cret'));
  });
});
