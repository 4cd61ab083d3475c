import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { AppError } from '../../src/errors.js';
import {
  assertPublicHost,
  checkRepositoryUrl,
  isPrivateAddress,
  parseLocalDirs,
  redactUrl,
  resolveRepository,
} from '../../src/modules/git-sync/repository-url.js';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'livery-url-')));
after(() => rmSync(scratch, { recursive: true, force: true }));
const allowed = join(scratch, 'allowed');
mkdirSync(join(allowed, 'repo'), { recursive: true });
mkdirSync(join(scratch, 'secret'), { recursive: true });
symlinkSync(join(scratch, 'secret'), join(allowed, 'escape'));
symlinkSync(join(allowed, 'repo'), join(allowed, 'alias'));

const open = { localDirs: [], allowPrivate: false };
const local = { localDirs: [allowed], allowPrivate: false };

const isRefusal = (part: string) => (error: unknown) =>
  error instanceof AppError &&
  error.statusCode === 400 &&
  error.message.startsWith('url: ') &&
  error.message.includes(part) &&
  !error.message.includes('s3cret');

describe('checkRepositoryUrl: what may be imported', () => {
  const accepted: [string, string, string, string][] = [
    // [url, kind/transport, url given to git, redacted]
    [
      'https://github.com/a/b.git',
      'https',
      'https://github.com/a/b.git',
      'https://github.com/a/b.git',
    ],
    [
      'https://user:s3cret@github.com/a/b.git',
      'https',
      'https://user:s3cret@github.com/a/b.git',
      'https://***@github.com/a/b.git',
    ],
    [
      'https://s3cret@gitlab.com/x',
      'https',
      'https://s3cret@gitlab.com/x',
      'https://***@gitlab.com/x',
    ],
    ['HTTPS://GitHub.com/a', 'https', 'https://github.com/a', 'https://github.com/a'],
    [
      'ssh://git@github.com/a/b.git',
      'ssh',
      'ssh://git@github.com/a/b.git',
      'ssh://***@github.com/a/b.git',
    ],
    ['git@github.com:a/b.git', 'ssh', 'git@github.com:a/b.git', 'git@github.com:a/b.git'],
    ['github.com:a/b.git', 'ssh', 'github.com:a/b.git', 'github.com:a/b.git'],
  ];
  for (const [url, transport, given, redacted] of accepted) {
    test(`accepts ${redactUrl(url)}`, () => {
      const location = checkRepositoryUrl(url, open);
      assert.equal(location.kind, 'remote');
      if (location.kind !== 'remote') return;
      assert.equal(location.transport, transport);
      assert.equal(location.url, given);
      assert.equal(location.redacted, redacted);
    });
  }

  const refused: [string, string][] = [
    ['http://github.com/a/b.git', 'http:// is not allowed'],
    ['git://github.com/a/b.git', 'git:// is not allowed'],
    ['ftp://x/y', 'ftp:// is not allowed'],
    ['ext::sh -c touch% /tmp/pwned', 'no spaces'],
    ['ext::sh', 'remote helpers'],
    ['fd::17', 'remote helpers'],
    ['--upload-pack=touch /tmp/x', 'no spaces'],
    ['-oProxyCommand=x', 'no spaces'],
    ['ssh://-oProxyCommand=x/a', 'valid host'],
    ['https://evil.com\\@127.0.0.1/', 'no spaces'],
    ['https://127.0.0.1/a.git', 'loopback or private'],
    ['https://2130706433/a.git', 'loopback or private'],
    ['https://0x7f.1/a.git', 'loopback or private'],
    ['https://localhost:8080/a', 'loopback or private'],
    ['https://git.localhost/a', 'loopback or private'],
    ['https://10.1.2.3/a', 'loopback or private'],
    ['https://172.20.0.1/a', 'loopback or private'],
    ['https://192.168.1.1/a', 'loopback or private'],
    ['https://169.254.169.254/latest', 'loopback or private'],
    ['https://100.64.0.1/a', 'loopback or private'],
    ['https://[::1]/a', 'loopback or private'],
    ['https://[fd00::1]/a', 'loopback or private'],
    ['https://[fe80::1]/a', 'loopback or private'],
    ['https://[::ffff:127.0.0.1]/a', 'loopback or private'],
    ['https://user:s3cret@10.0.0.1/a', 'loopback or private'],
    ['ssh://git@127.0.0.1/a', 'loopback or private'],
    ['git@192.168.0.2:a.git', 'loopback or private'],
    ['git@[::1]:a.git', 'loopback or private'],
    ['', 'no spaces'],
    ['relative/path', 'https://, ssh://'],
    ['/srv/repo', 'GIT_LOCAL_DIRS is empty'],
    ['file:///srv/repo', 'GIT_LOCAL_DIRS is empty'],
  ];
  for (const [url, part] of refused) {
    test(`refuses ${JSON.stringify(url)}`, () => {
      assert.throws(() => checkRepositoryUrl(url, open), isRefusal(part));
    });
  }

  test('private hosts are allowed when the policy says so', () => {
    const location = checkRepositoryUrl('https://127.0.0.1:8443/a.git', {
      localDirs: [],
      allowPrivate: true,
    });
    assert.equal(location.kind === 'remote' && location.port, 8443);
  });
});

describe('local repositories: only inside GIT_LOCAL_DIRS, symlinks resolved', () => {
  test('GIT_LOCAL_DIRS is colon-separated', () => {
    assert.deepEqual(parseLocalDirs('/a::/b/c'), ['/a', '/b/c']);
    assert.deepEqual(parseLocalDirs(undefined), []);
  });
  test('a path or a file:// URL inside is accepted, as its real path', () => {
    const repo = join(allowed, 'repo');
    assert.deepEqual(checkRepositoryUrl(repo, local), { kind: 'local', path: repo });
    assert.deepEqual(checkRepositoryUrl(`file://${repo}`, local), { kind: 'local', path: repo });
    assert.deepEqual(checkRepositoryUrl(join(allowed, 'alias'), local), {
      kind: 'local',
      path: repo,
    });
  });
  const refused: [string, string][] = [
    [join(allowed, '..', 'secret'), 'not inside'],
    [join(allowed, 'escape'), 'not inside'],
    [join(allowed, 'escape', 'x'), 'no such local directory'],
    [`${allowed}-other`, 'not inside'],
    [join(allowed, 'missing'), 'no such local directory'],
    ['file://host/srv/repo', 'file:// URL'],
  ];
  for (const [path, part] of refused) {
    test(`refuses ${path.replace(scratch, '<tmp>')}`, () => {
      assert.throws(() => checkRepositoryUrl(path, local), isRefusal(part));
    });
  }
});

describe('assertPublicHost: every resolved address must be public', () => {
  const answers =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address }));
  test('public addresses are returned, for pinning', async () => {
    assert.deepEqual(
      await assertPublicHost('example.com', answers('93.184.215.14', '2606:2800::1')),
      ['93.184.215.14', '2606:2800::1'],
    );
    assert.deepEqual(await assertPublicHost('8.8.8.8'), ['8.8.8.8']);
  });
  test('one private address among public ones is enough to refuse', async () => {
    await assert.rejects(
      assertPublicHost('rebind.example', answers('93.184.215.14', '127.0.0.1')),
      isRefusal('resolves to a loopback or private address'),
    );
  });
  test('a name that does not resolve is refused', async () => {
    const fail = async () => {
      throw new Error('ENOTFOUND');
    };
    await assert.rejects(
      assertPublicHost('nowhere.invalid', fail),
      isRefusal('could not be resolved'),
    );
  });
  test('address classes', () => {
    for (const address of [
      '127.0.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fc00::1',
      '::ffff:10.0.0.1',
      '::ffff:a00:1',
    ]) {
      assert.ok(isPrivateAddress(address), address);
    }
    for (const address of ['8.8.8.8', '140.82.121.4', '2606:4700::1111', '172.32.0.1']) {
      assert.ok(!isPrivateAddress(address), address);
    }
  });
});

describe('redactUrl: credentials out of any text', () => {
  const rows: [string, string][] = [
    [
      "fatal: unable to access 'https://user:s3cret@github.com/a.git/': 403",
      "fatal: unable to access 'https://***@github.com/a.git/': 403",
    ],
    ['https://tok3n@host/x and ssh://me:pw@h/y', 'https://***@host/x and ssh://***@h/y'],
    ['https://u:p@ss@host/x', 'https://***@host/x'],
    ['https://host/a@b', 'https://host/a@b'],
    ['git@github.com:a/b.git', 'git@github.com:a/b.git'],
  ];
  for (const [text, redacted] of rows) {
    test(redacted, () => assert.equal(redactUrl(text), redacted));
  }
});

describe('resolveRepository: the whole policy', () => {
  test('a public host gives its addresses, for pinning', async () => {
    const lookup = async () => [{ address: '140.82.121.4' }];
    const { location, addresses } = await resolveRepository('https://github.com/a/b', open, lookup);
    assert.equal(location.kind, 'remote');
    assert.deepEqual(addresses, ['140.82.121.4']);
  });
  test('a name that resolves to a private address is refused', async () => {
    const lookup = async () => [{ address: '10.0.0.7' }];
    await assert.rejects(resolveRepository('git@git.corp:a/b', open, lookup), isRefusal('private'));
  });
  test('no lookup when private hosts are allowed, nor for local paths', async () => {
    const fail = async () => assert.fail('no lookup expected');
    const allow = { localDirs: [allowed], allowPrivate: true };
    assert.deepEqual((await resolveRepository('https://git.corp/a', allow, fail)).addresses, []);
    assert.deepEqual((await resolveRepository(join(allowed, 'repo'), local, fail)).addresses, []);
  });
});
