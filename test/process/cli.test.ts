import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { TestRemote } from '../helpers/git-remote.js';
import { TestRepo } from '../helpers/git-repo.js';
import { run } from '../helpers/process.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

async function cli(...args: string[]) {
  const lines: string[] = [];
  const code = await runCli(args, t.services, (line) => lines.push(line));
  return { code, output: lines.join('\n') };
}

const tokenIn = (output: string) => /(gb_[A-Za-z0-9_-]{43})/.exec(output)?.[1] ?? '';
const asUser = (token: string) => ({ authorization: `Bearer ${token}` });

describe('npm run livery -- <command>', () => {
  test('site-token-keys list and rotate: ids and dates only, never a secret', async () => {
    const before = await cli('site-token-keys', 'list');
    assert.equal(before.code, 0);
    assert.match(before.output, /^k[0-9a-f]{12} {2}created \S+ {2}current$/);
    const rotated = await cli('site-token-keys', 'rotate');
    assert.equal(rotated.code, 0);
    const id = /new key (k[0-9a-f]{12})/.exec(rotated.output)?.[1];
    assert.ok(id, rotated.output);
    const after = await cli('site-token-keys', 'list');
    assert.match(after.output, new RegExp(`^${id} {2}created \\S+ {2}current$`, 'm'));
    assert.match(after.output, /retired/);
    const secrets = await t.db.selectFrom('site_token_keys').select('secret').execute();
    for (const { secret } of secrets) assert.ok(!after.output.includes(secret));
  });

  test('tokens create --user prints a working token; tokens revoke stops it', async () => {
    const created = await cli('tokens', 'create', '--user', t.userId, '--label', 'ci');
    assert.equal(created.code, 0);
    const token = tokenIn(created.output);
    const tokenId = /token id: (tok_\w+)/.exec(created.output)?.[1] ?? '';
    expectStatus(
      await t.app.inject({ method: 'GET', url: '/v1/user', headers: asUser(token) }),
      200,
    );

    const listed = await cli('tokens', 'list', '--user', t.userId);
    assert.match(listed.output, new RegExp(`${tokenId} .* ci .* active`));
    assert.doesNotMatch(listed.output, /gb_/, 'lists never show secrets');

    assert.equal((await cli('tokens', 'revoke', tokenId)).code, 0);
    expectError(
      await t.app.inject({ method: 'GET', url: '/v1/user', headers: asUser(token) }),
      401,
    );
    assert.match((await cli('tokens', 'list')).output, new RegExp(`${tokenId} .* revoked`));
    const again = await cli('tokens', 'revoke', tokenId);
    assert.equal(again.code, 1);
    assert.match(again.output, /no active token/);
  });

  test('tokens create for an unknown user fails with a clear message', async () => {
    await assert.rejects(
      cli('tokens', 'create', '--user', 'nobody'),
      /No user found with id "nobody"/,
    );
  });

  test('orgs create makes an organization, an admin owner and their token', async () => {
    const created = await cli('orgs', 'create', '--title', 'Second org', '--owner', 'Ada');
    assert.equal(created.code, 0);
    const orgId = /organization: (\w+)/.exec(created.output)?.[1] ?? '';
    const headers = asUser(tokenIn(created.output));
    const org = expectStatus(
      await t.app.inject({ method: 'GET', url: `/v1/orgs/${orgId}`, headers }),
      200,
    );
    assert.equal(org.title, 'Second org');
    assert.equal((org.permissions as { admin: boolean }).admin, true);
    const user = expectStatus(await t.app.inject({ method: 'GET', url: '/v1/user', headers }), 200);
    assert.equal(user.displayName, 'Ada');
    assert.match((await cli('orgs', 'list')).output, new RegExp(`${orgId}  Second org`));
    assert.equal((await cli('orgs', 'create', '--title', 'x')).code, 2);
  });

  test('an unknown command prints the usage', async () => {
    const result = await cli('frobnicate');
    assert.equal(result.code, 2);
    assert.match(result.output, /Usage: npm run livery -- <command>/);
    assert.equal((await cli('--help')).code, 0);
  });

  test('the entry point runs against DATABASE_URL', async () => {
    const result = await run(['--import', 'tsx', 'src/cli.ts', 'orgs', 'list'], {
      DATABASE_URL: t.databaseUrl,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`${t.orgId}  Test organization`));
    const bad = await run(['--import', 'tsx', 'src/cli.ts', 'tokens', 'list', '--bogus'], {
      DATABASE_URL: t.databaseUrl,
    });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Unknown option '--bogus'/);
  });

  test('git import <space> <path> imports a local checkout (its directory allowed for the run) and waits; git status tells', async () => {
    const repo = new TestRepo();
    try {
      repo.commit({
        'README.md': '# Welcome\n\nHello.\n',
        'SUMMARY.md': '* [Welcome](README.md)\n* [Two](two.md)\n',
        'two.md': '# Two\n\n[missing](gone.md)\n',
      });
      const space = expectStatus(
        await t.request({
          method: 'POST',
          url: `/v1/orgs/${t.orgId}/spaces`,
          payload: { title: 'CLI' },
        }),
        201,
      );
      const env = { DATABASE_URL: t.databaseUrl, GIT_CACHE_DIR: `${repo.root}/.cache` };
      const imported = await run(
        [
          '--import',
          'tsx',
          'src/cli.ts',
          'git',
          'import',
          String(space.id),
          repo.dir,
          '--ref',
          'main',
        ],
        env,
      );
      assert.equal(imported.code, 0, imported.stderr + imported.stdout);
      assert.match(imported.stdout, /import success/);
      const pages = expectStatus(
        await t.request({ url: `/v1/spaces/${space.id}/content/pages` }),
        200,
      );
      assert.deepEqual(
        (pages.pages as { title: string }[]).map((p) => p.title),
        ['Welcome', 'Two'],
      );
      const status = await run(
        ['--import', 'tsx', 'src/cli.ts', 'git', 'status', String(space.id)],
        env,
      );
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /import success/);
      // Through the API, the same path is refused: GIT_LOCAL_DIRS is empty for the server.
      const refused = await t.request({
        method: 'POST',
        url: `/v1/spaces/${space.id}/git/import`,
        payload: { url: repo.dir, ref: 'main' },
      });
      assert.match(expectError(refused, 400), /url/);
      const unknown = await run(['--import', 'tsx', 'src/cli.ts', 'git', 'status', 'nope'], env);
      assert.equal(unknown.code, 1);
    } finally {
      repo.dispose();
    }
  });

  test('git import-site and git export-site: a docs.yaml checkout in, a bare remote out, as processes', async () => {
    const repo = new TestRepo();
    const remote = new TestRemote();
    try {
      repo.commit({
        'docs.yaml':
          'site:\n  title: CLI site\n  structure:\n    - type: space\n      key: main\n      title: Main\n      path: main\n      default: true\n      content:\n        directory: ./main\n',
        'main/README.md': '# Welcome\n\nHello.\n',
      });
      const site = expectStatus(
        await t.request({
          method: 'POST',
          url: `/v1/orgs/${t.orgId}/sites`,
          payload: { title: 'Before' },
        }),
        201,
      );
      const env = { DATABASE_URL: t.databaseUrl, GIT_CACHE_DIR: `${repo.root}/.cache` };
      const cli = (...args: string[]) =>
        run(['--import', 'tsx', 'src/cli.ts', 'git', ...args], env);
      const imported = await cli('import-site', String(site.id), repo.dir, '--ref', 'main');
      assert.equal(imported.code, 0, imported.stderr + imported.stdout);
      assert.match(imported.stdout, /import success/);
      const after = expectStatus(
        await t.request({ url: `/v1/orgs/${t.orgId}/sites/${site.id}` }),
        200,
      );
      assert.equal(after.title, 'CLI site');
      const exported = await cli(
        'export-site',
        String(site.id),
        remote.bare,
        '--message',
        'From the CLI',
      );
      assert.equal(exported.code, 0, exported.stderr + exported.stdout);
      assert.match(exported.stdout, /export success/);
      assert.equal(remote.message(), 'From the CLI');
      assert.match(remote.file('docs.yaml') ?? '', /title: CLI site/);
      assert.match(remote.file('main/README.md') ?? '', /Hello/);
      const unknown = await cli('import-site', 'site_nope', repo.dir);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr + unknown.stdout, /site/);
    } finally {
      repo.dispose();
      remote.dispose();
    }
  });

  test('git export, git link (webhook and first sync), git sync and git unlink, on a bare remote', async () => {
    const remote = new TestRemote();
    try {
      remote.push({
        'README.md': '# Welcome\n\nHello.\n',
        'SUMMARY.md': '* [Welcome](README.md)\n',
      });
      const space = expectStatus(
        await t.request({
          method: 'POST',
          url: `/v1/orgs/${t.orgId}/spaces`,
          payload: { title: 'CLI Git' },
        }),
        201,
      );
      const env = {
        DATABASE_URL: t.databaseUrl,
        GIT_CACHE_DIR: `${remote.root}/.cache`,
        SECRET_KEY: 'a-cli-test-secret-key-of-32-characters-or-more',
      };
      const cli = (...args: string[]) =>
        run(['--import', 'tsx', 'src/cli.ts', 'git', ...args], env);
      const linked = await cli('link', String(space.id), remote.bare, '--ref', 'main');
      assert.equal(linked.code, 0, linked.stderr + linked.stdout);
      assert.match(linked.stdout, /webhook secret: [\w-]{20,}/);
      assert.match(linked.stdout, /import success/, 'the first sync imports the branch');
      const pages = expectStatus(
        await t.request({ url: `/v1/spaces/${space.id}/content/pages` }),
        200,
      );
      assert.deepEqual(
        (pages.pages as { title: string }[]).map((p) => p.title),
        ['Welcome'],
      );
      remote.push({
        'two.md': '# Two\n',
        'SUMMARY.md': '* [Welcome](README.md)\n* [Two](two.md)\n',
      });
      // The server (and `git sync`, which names no path) reads a local repository only under
      // GIT_LOCAL_DIRS; `git link` and `git export` allow the path they are given for their run.
      const synced = await run(['--import', 'tsx', 'src/cli.ts', 'git', 'sync', String(space.id)], {
        ...env,
        GIT_LOCAL_DIRS: remote.root,
      });
      assert.equal(synced.code, 0, synced.stderr + synced.stdout);
      const after = expectStatus(
        await t.request({ url: `/v1/spaces/${space.id}/content/pages` }),
        200,
      );
      assert.deepEqual(
        (after.pages as { title: string }[]).map((p) => p.title),
        ['Welcome', 'Two'],
      );
      const unlinked = await cli('unlink', String(space.id));
      assert.equal(unlinked.code, 0, unlinked.stderr);
      const other = new TestRemote();
      try {
        const exported = await cli(
          'export',
          String(space.id),
          other.bare,
          '--message',
          'From the CLI',
        );
        assert.equal(exported.code, 0, exported.stderr + exported.stdout);
        assert.match(exported.stdout, /export success/);
        assert.equal(other.message(), 'From the CLI');
        assert.equal(other.file('two.md'), '# Two\n');
      } finally {
        other.dispose();
      }
    } finally {
      remote.dispose();
    }
  });
});
