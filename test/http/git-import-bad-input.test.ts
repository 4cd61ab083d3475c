import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';
import {
  allPages,
  currentRevision,
  describeWarnings,
  importAndWait,
  newSpace,
  queueImport,
  warningAbout,
} from '../helpers/git-import.js';
import { pngOf, TestRepo } from '../helpers/git-repo.js';

/**
 * Git Sync import of bad input (issue 27, "Bad input"; docs/git-sync.md): every repository or
 * request a client may send ends as a 400 naming the field, a clear `operation.error` (fatal:
 * the space's revision unchanged) or a warning of getSpaceGitInfo naming the file and line; never
 * a 5xx, never a half-imported space, never a byte read outside the repository's objects.
 */

const LFS_POINTER =
  'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';

/** Every page's stored Markdown, and every file's bytes, of the space's current revision. */
async function everythingStored(t: TestContext, spaceId: string): Promise<string> {
  const revision = await currentRevision(t, spaceId);
  const parts = [JSON.stringify(revision)];
  for (const page of allPages(revision.pages)) {
    if (page.type !== 'document') continue;
    const res = await t.request({
      url: `/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`,
    });
    assert.equal(res.statusCode, 200, res.body);
    parts.push(res.body);
  }
  for (const file of revision.files ?? []) {
    const res = await t.app.inject({ url: new URL(file.downloadURL).pathname });
    assert.equal(res.statusCode, 200, file.downloadURL);
    parts.push(res.rawPayload.toString('latin1'));
  }
  return parts.join('\n');
}

describe(`Git Sync import: bad input (${BACKEND})`, () => {
  const repo = new TestRepo();
  let t: TestContext;
  const url = `file://${repo.dir}`;
  before(async () => {
    t = await createTestApp({
      GIT_LOCAL_DIRS: repo.root,
      GIT_CACHE_DIR: join(repo.root, '.cache'),
    });
  });
  after(async () => {
    await t.close();
    repo.dispose();
  });

  /** A repository state that imports cleanly: the space's revision before each bad import. */
  const GOOD = {
    'README.md': '# Welcome\n\nHello.\n',
    'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
    'guide.md': '# Guide\n\nText.\n',
  };

  async function spaceWithGoodImport(): Promise<{ spaceId: string; revisionId: string }> {
    repo.commit(GOOD, 'good state');
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    return { spaceId, revisionId: (await currentRevision(t, spaceId)).id };
  }

  test('the request: unknown field, missing ref, repoProjectDirectory with ../: 400 naming the field, nothing started', async () => {
    const spaceId = await newSpace(t);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url, ref: 'main', branch: 'main' }, /branch/],
      [{ url }, /ref/],
      [{ url, ref: 'main', repoProjectDirectory: '../elsewhere' }, /repoProjectDirectory/],
      [{ url, ref: 'main', repoProjectDirectory: 'docs/../../x' }, /repoProjectDirectory/],
      [{ url, ref: 'main', timestamp: 'yesterday' }, /timestamp/],
      // A leap second: a valid RFC 3339 date-time that JavaScript's Date cannot read.
      [{ url, ref: 'main', timestamp: '2026-12-31T23:59:60Z' }, /timestamp/],
      [{ url, ref: 'main', force: 'yes' }, /force/],
    ];
    for (const [body, field] of cases) {
      const res = await queueImport(t, spaceId, body);
      const message = expectError(res, 400);
      assert.match(message, field, `${JSON.stringify(body)}: ${message}`);
    }
    expectError(await t.request({ url: `/v1/spaces/${spaceId}/git/info` }), 404);
  });

  test('an unreachable host: a 400 of the URL policy naming url (its name does not resolve), nothing started', async () => {
    const spaceId = await newSpace(t);
    const before = (await currentRevision(t, spaceId)).id;
    const res = await queueImport(t, spaceId, {
      url: 'https://unresolvable.invalid/x.git',
      ref: 'main',
    });
    assert.match(expectError(res, 400), /^url: .*could not be resolved/);
    expectError(await t.request({ url: `/v1/spaces/${spaceId}/git/info` }), 404);
    assert.equal((await currentRevision(t, spaceId)).id, before);
  });

  test('a ref or URL that git would read as an option: refused, nothing run', async () => {
    const { spaceId, revisionId } = await spaceWithGoodImport();
    const marker = join(repo.root, 'pwned');
    const state = await importAndWait(t, spaceId, {
      url,
      ref: `--upload-pack=touch ${marker}`,
    });
    assert.equal(state.operation.state, 'failure');
    assert.match(state.operation.error, /ref/);
    const res = await queueImport(t, spaceId, {
      url: `--upload-pack=touch ${marker}`,
      ref: 'main',
    });
    assert.match(expectError(res, 400), /^url/);
    assert.equal(existsSync(marker), false);
    assert.equal((await currentRevision(t, spaceId)).id, revisionId);
  });

  test('a repoProjectDirectory with no files: a failure naming it, the space unchanged', async () => {
    const { spaceId, revisionId } = await spaceWithGoodImport();
    const state = await importAndWait(t, spaceId, {
      url,
      ref: 'main',
      repoProjectDirectory: 'no/such/dir',
    });
    assert.equal(state.operation.state, 'failure');
    assert.match(state.operation.error, /no\/such\/dir/);
    assert.equal((await currentRevision(t, spaceId)).id, revisionId);
  });

  test('.gitbook.yaml with a root outside the project and unknown keys: warnings with lines, defaults used', async () => {
    repo.commit(
      { ...GOOD, '.gitbook.yaml': 'root: ../../etc\nstrucure:\n  readme: x.md\n' },
      'yaml root outside',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, '.gitbook.yaml', /root/, 1);
    warningAbout(state, '.gitbook.yaml', /strucure/, 2);
    assert.deepEqual(
      (await currentRevision(t, spaceId)).pages.map((p: { title: string }) => p.title),
      ['Welcome', 'Guide'],
    );
    repo.commit({ '.gitbook.yaml': null }, 'no yaml');
  });

  test('an unknown ref: a failure naming it, the space unchanged', async () => {
    const { spaceId, revisionId } = await spaceWithGoodImport();
    const state = await importAndWait(t, spaceId, { url, ref: 'refs/heads/no-such-branch' });
    assert.equal(state.operation.state, 'failure');
    assert.match(state.operation.error, /no such ref/i);
    assert.equal((await currentRevision(t, spaceId)).id, revisionId);
  });

  test('not a Git repository (a plain directory inside GIT_LOCAL_DIRS): a failure, the space unchanged', async () => {
    const { spaceId, revisionId } = await spaceWithGoodImport();
    const plain = join(repo.root, 'plain-dir');
    mkdirSync(plain, { recursive: true });
    writeFileSync(join(plain, 'README.md'), '# Not in Git\n');
    for (const where of [`file://${plain}`, plain]) {
      const state = await importAndWait(t, spaceId, { url: where, ref: 'main' });
      assert.equal(state.operation.state, 'failure', where);
      assert.match(state.operation.error, /not a Git repository/i, where);
      assert.equal((await currentRevision(t, spaceId)).id, revisionId, where);
    }
  });

  test("an invalid .gitbook.yaml: a warning with its line, GitBook's defaults used", async () => {
    repo.commit(
      {
        ...GOOD,
        '.gitbook.yaml': 'root: ./\nstructure:\n  readme: [unclosed\nredirects:\n  a: b.md\n',
      },
      'bad yaml',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    const warning = warningAbout(state, '.gitbook.yaml', /invalid YAML/);
    const line = warning.line ?? 0;
    assert.ok(line >= 3 && line <= 5, `line ${warning.line}: ${describeWarnings(state)}`);
    const revision = await currentRevision(t, spaceId);
    assert.deepEqual(
      revision.pages.map((p: { title: string }) => p.title),
      ['Welcome', 'Guide'],
      'README.md and SUMMARY.md, the defaults, were read',
    );
    repo.commit({ '.gitbook.yaml': null }, 'no yaml');
  });

  test('invalid front matter: a warning with file and line, the page imported', async () => {
    repo.commit(
      {
        ...GOOD,
        'guide.md': '---\ndescription: fine\ntitle: [unclosed\n---\n\n# Guide\n\nBody text.\n',
      },
      'bad front matter',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    const warning = warningAbout(state, 'guide.md', /./);
    const line = warning.line ?? 0;
    assert.ok(line >= 2 && line <= 4, `line ${warning.line}: ${describeWarnings(state)}`);
    const guide = (await currentRevision(t, spaceId)).pages.find(
      (p: { title: string }) => p.title === 'Guide',
    );
    assert.ok(guide, 'the page is imported');
    const md = await t.request({
      url: `/v1/spaces/${spaceId}/content/page/${guide.id}?format=markdown`,
    });
    assert.match(md.json().markdown, /Body text\./);
  });

  test('YAML alias bombs in front matter and .gitbook.yaml: warnings naming the file, the pages imported', async () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
    ].join('\n');
    repo.commit(
      {
        ...GOOD,
        '.gitbook.yaml': `${bomb}\nredirects:\n  x: *g\n`,
        'guide.md': `---\n${bomb}\ndescription: *g\n---\n\n# Guide\n\nBody.\n`,
      },
      'alias bombs',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, '.gitbook.yaml', /./);
    warningAbout(state, 'guide.md', /./);
    assert.deepEqual(
      (await currentRevision(t, spaceId)).pages.map((p: { title: string }) => p.title),
      ['Welcome', 'Guide'],
    );
    repo.commit({ '.gitbook.yaml': null, ...GOOD }, 'no bombs');
  });

  test('SUMMARY entries to a missing file, outside the root, beyond the repository: warnings with the SUMMARY line', async () => {
    repo.commit(
      {
        'outside.md': '# Outside the root\n\nOUTSIDE-ROOT-TEXT\n',
        'docs/README.md': '# Docs\n',
        'docs/SUMMARY.md':
          '# Table of contents\n\n* [Docs](README.md)\n* [Missing](missing.md)\n* [Outside](../outside.md)\n* [Beyond](../../beyond.md)\n* [Kept](kept.md)\n',
        'docs/kept.md': '# Kept\n',
      },
      'summary entries',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, {
      url,
      ref: 'main',
      repoProjectDirectory: 'docs',
    });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, 'docs/SUMMARY.md', /missing\.md/, 4);
    warningAbout(state, 'docs/SUMMARY.md', /outside\.md/, 5);
    warningAbout(state, 'docs/SUMMARY.md', /beyond\.md/, 6);
    const revision = await currentRevision(t, spaceId);
    const titles = allPages(revision.pages).map((p) => p.title);
    assert.deepEqual(titles, ['Docs', 'Kept']);
    assert.doesNotMatch(await everythingStored(t, spaceId), /OUTSIDE-ROOT-TEXT/);
  });

  test('a SUMMARY entry beyond the repository with the root at its top: a warning with the line', async () => {
    repo.commit(
      {
        ...GOOD,
        'SUMMARY.md':
          '# Table of contents\n\n* [Welcome](README.md)\n* [Up](../docs-repo/guide.md)\n* [Abs](/etc/passwd)\n* [Guide](guide.md)\n',
      },
      'summary beyond',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, 'SUMMARY.md', /docs-repo\/guide\.md/, 4);
    warningAbout(state, 'SUMMARY.md', /passwd/, 5);
    assert.deepEqual(
      allPages((await currentRevision(t, spaceId)).pages).map((p) => p.title),
      ['Welcome', 'Guide'],
    );
    assert.doesNotMatch(await everythingStored(t, spaceId), /root:/);
  });

  test('symbolic links out of the checkout: warnings, never followed, nothing of their target stored', async () => {
    repo.link('secret.md', '/etc/passwd');
    repo.link('.gitbook/assets/passwd.png', '/etc/passwd');
    repo.link('etc', '/etc');
    repo.commit(
      {
        'README.md': '# Welcome\n\n![pw](.gitbook/assets/passwd.png) [pw](etc/passwd)\n',
        'SUMMARY.md':
          '# Table of contents\n\n* [Welcome](README.md)\n* [Secret](secret.md)\n* [Via a folder](etc/passwd)\n',
      },
      'symbolic links',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, 'secret.md', /symbolic link/);
    warningAbout(state, '.gitbook/assets/passwd.png', /symbolic link/);
    warningAbout(state, 'etc', /symbolic link/);
    warningAbout(state, 'SUMMARY.md', /secret\.md/, 4);
    const stored = await everythingStored(t, spaceId);
    assert.doesNotMatch(stored, /root:/, 'no byte of /etc/passwd');
    const revision = await currentRevision(t, spaceId);
    assert.deepEqual(
      allPages(revision.pages).map((p) => p.title),
      ['Welcome'],
    );
    assert.deepEqual(revision.files, []);
    repo.commit({ 'secret.md': null, '.gitbook/assets/passwd.png': null, etc: null }, 'unlink');
  });

  test('a submodule: a warning naming it, its entry skipped, the rest imported', async () => {
    repo.commit(GOOD, 'good state');
    const head = repo.git('rev-parse', 'HEAD');
    repo.git('update-index', '--add', '--cacheinfo', `160000,${head},sub`);
    writeFileSync(
      join(repo.dir, 'SUMMARY.md'),
      '# Table of contents\n\n* [Welcome](README.md)\n* [Sub](sub/README.md)\n* [Guide](guide.md)\n',
    );
    repo.git('add', 'SUMMARY.md');
    repo.git('commit', '-q', '-m', 'a submodule');
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, 'sub', /submodule/);
    warningAbout(state, 'SUMMARY.md', /sub\/README\.md/, 4);
    const revision = await currentRevision(t, spaceId);
    assert.deepEqual(
      revision.pages.map((p: { title: string }) => p.title),
      ['Welcome', 'Guide'],
    );
    repo.git('rm', '-q', '--cached', 'sub');
    repo.commit(GOOD, 'no submodule');
  });

  test('Git LFS pointers, as a page and as an asset: warnings naming them, neither imported as content', async () => {
    repo.commit(
      {
        ...GOOD,
        'guide.md': LFS_POINTER,
        '.gitbook/assets/big.png': LFS_POINTER,
        '.gitbook/assets/small.png': pngOf(2, 2),
        'README.md': '# Welcome\n\n![big](.gitbook/assets/big.png)\n',
      },
      'lfs pointers',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, 'guide.md', /LFS/);
    warningAbout(state, '.gitbook/assets/big.png', /LFS/);
    const revision = await currentRevision(t, spaceId);
    assert.deepEqual(
      revision.pages.map((p: { title: string }) => p.title),
      ['Welcome'],
    );
    assert.deepEqual(
      revision.files.map((f: { name: string }) => f.name),
      ['small.png'],
    );
    assert.doesNotMatch(await everythingStored(t, spaceId), /git-lfs\.github\.com/);
    repo.commit({ '.gitbook/assets/big.png': null, '.gitbook/assets/small.png': null }, 'no lfs');
  });

  test('binary data in a .md file: a warning naming it, the page not imported, the rest imported', async () => {
    const binary = Buffer.concat([Buffer.from('# Binary\n'), Buffer.from([0, 1, 2, 0xff, 0])]);
    repo.commit({ ...GOOD, 'guide.md': binary }, 'binary page');
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, 'guide.md', /binary/);
    const revision = await currentRevision(t, spaceId);
    assert.deepEqual(
      revision.pages.map((p: { title: string }) => p.title),
      ['Welcome'],
    );
  });
});

describe(`Git Sync import: limits and credentials (${BACKEND})`, () => {
  const repo = new TestRepo();
  const lines: string[] = [];
  let t: TestContext;
  const url = `file://${repo.dir}`;
  before(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(
      {
        GIT_LOCAL_DIRS: repo.root,
        GIT_CACHE_DIR: join(repo.root, '.cache'),
        GIT_ALLOW_PRIVATE_HOSTS: '1',
        FILE_MAX_BYTES: '1000',
        SPACE_MAX_PAGES: '5',
        LOG_LEVEL: 'debug',
      },
      logStream,
    );
  });
  after(async () => {
    await t.close();
    repo.dispose();
  });

  test('credentials in an https URL appear nowhere: not in getSpaceGitInfo, the error, the logs, the database', async () => {
    const spaceId = await newSpace(t);
    const before = (await currentRevision(t, spaceId)).id;
    const secretUrl = 'https://user:secret@127.0.0.1:1/x.git';
    const state = await importAndWait(t, spaceId, { url: secretUrl, ref: 'main' });
    assert.equal(state.operation.state, 'failure');
    assert.match(state.operation.error, /could not be reached/);
    const info = JSON.stringify(state);
    assert.doesNotMatch(info, /secret/, info);
    assert.match(info, /127\.0\.0\.1/, 'the URL is shown, redacted');
    const space = await t.request({ url: `/v1/spaces/${spaceId}` });
    assert.doesNotMatch(space.body, /secret/);
    const rows = await t.db.selectFrom('git_sync').selectAll().execute();
    assert.doesNotMatch(JSON.stringify(rows), /secret/, 'nothing stored in clear');
    // ssh:// with a password in it (ssh never uses one): not shown either.
    const sshSpace = await newSpace(t);
    const ssh = await importAndWait(t, sshSpace, {
      url: 'ssh://user:secret@127.0.0.1:1/x.git',
      ref: 'main',
    });
    assert.equal(ssh.operation.state, 'failure');
    assert.doesNotMatch(JSON.stringify(ssh), /secret/);
    // Refused before anything runs: the 400 does not echo the credentials either.
    for (const refused of [
      'http://user:secret@example.com/x.git',
      'https://user:secret@unresolvable.invalid/x.git'.replace('https', 'ftp'),
      'https://user:secret@exa mple.com/x.git',
      'ext::user:secret@example.com',
      'https://user:secret@[::1/x.git',
    ]) {
      const res = await queueImport(t, spaceId, { url: refused, ref: 'main' });
      const message = expectError(res, 400);
      assert.doesNotMatch(message, /secret/, `${refused}: ${message}`);
    }
    assert.ok(lines.length > 0, 'the log was captured');
    assert.ok(
      lines.some((line) => line.includes('git import')),
      'the operation was logged',
    );
    assert.ok(
      lines.some((line) => line.includes('could not be reached') && line.includes(spaceId)),
      'the failure was logged with its reason',
    );
    for (const line of lines) assert.doesNotMatch(line, /secret/, line);
    assert.equal((await currentRevision(t, spaceId)).id, before);
  });

  test('an unreachable host where private hosts are allowed: a failure saying so, the space unchanged', async () => {
    const spaceId = await newSpace(t);
    const before = (await currentRevision(t, spaceId)).id;
    const state = await importAndWait(t, spaceId, {
      url: 'https://127.0.0.1:1/x.git',
      ref: 'main',
    });
    assert.equal(state.operation.state, 'failure');
    assert.match(state.operation.error, /could not be reached/);
    assert.equal((await currentRevision(t, spaceId)).id, before);
  });

  test('5,000 pages under the default SPACE_MAX_PAGES: all imported, in one revision', async () => {
    const big = new TestRepo();
    try {
      const files: Record<string, string> = { 'README.md': '# Home\n' };
      let summary = '# Table of contents\n\n* [Home](README.md)\n';
      for (let i = 0; i < 50; i++) {
        summary += `* [Part ${i}](part-${i}/README.md)\n`;
        files[`part-${i}/README.md`] = `# Part ${i}\n`;
        for (let j = 0; j < 99; j++) {
          summary += `  * [Page ${i}.${j}](part-${i}/page-${j}.md)\n`;
          files[`part-${i}/page-${j}.md`] =
            `# Page ${i}.${j}\n\nText of page ${i}.${j}, see [home](../README.md).\n`;
        }
      }
      big.commit({ ...files, 'SUMMARY.md': summary }, '5,001 pages');
      const app = await createTestApp({
        GIT_LOCAL_DIRS: big.root,
        GIT_CACHE_DIR: join(big.root, '.cache'),
      });
      try {
        const spaceId = await newSpace(app);
        const state = await importAndWait(app, spaceId, { url: `file://${big.dir}`, ref: 'main' });
        assert.equal(state.operation.state, 'success', JSON.stringify(state).slice(0, 2000));
        assert.deepEqual(state.warnings, []);
        const revision = await currentRevision(app, spaceId);
        assert.equal(allPages(revision.pages).length, 5001);
      } finally {
        await app.close();
      }
    } finally {
      big.dispose();
    }
  });

  test('a file over FILE_MAX_BYTES: a warning naming it, the rest imported', async () => {
    repo.commit(
      {
        'README.md': '# Welcome\n\n![a](.gitbook/assets/a.png) [doc](manual.pdf)\n',
        'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
        '.gitbook/assets/a.png': pngOf(3, 3),
        '.gitbook/assets/huge.png': Buffer.concat([pngOf(9, 9), Buffer.alloc(2000, 7)]),
        'manual.pdf': Buffer.alloc(1500, 65),
      },
      'big files',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    warningAbout(state, '.gitbook/assets/huge.png', /FILE_MAX_BYTES/);
    warningAbout(state, 'manual.pdf', /FILE_MAX_BYTES/);
    const revision = await currentRevision(t, spaceId);
    assert.deepEqual(
      revision.files.map((f: { name: string }) => f.name),
      ['a.png'],
    );
  });

  test('more pages than SPACE_MAX_PAGES: a fatal error, the space unchanged', async () => {
    const few: Record<string, string> = {
      'README.md': '# Welcome\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [One](one.md)\n',
      'one.md': '# One\n',
    };
    repo.commit(few, 'few pages');
    const spaceId = await newSpace(t);
    const first = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(first.operation.state, 'success', JSON.stringify(first));
    const before = await currentRevision(t, spaceId);

    const many: Record<string, string> = { 'README.md': '# Welcome\n' };
    let summary = '# Table of contents\n\n* [Welcome](README.md)\n';
    for (let i = 0; i < 8; i++) {
      many[`page-${i}.md`] = `# Page ${i}\n`;
      summary += `* [Page ${i}](page-${i}.md)\n`;
    }
    repo.commit({ ...many, 'SUMMARY.md': summary }, 'many pages');
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'failure', JSON.stringify(state));
    assert.match(state.operation.error, /SPACE_MAX_PAGES/);
    const afterwards = await currentRevision(t, spaceId);
    assert.equal(afterwards.id, before.id);
    assert.deepEqual(afterwards.pages, before.pages);

    // Pages, groups and links all count: 3 pages and 3 groups are over 5 too.
    repo.commit(
      {
        'SUMMARY.md':
          '# Table of contents\n\n* [Welcome](README.md)\n\n## A\n\n* [Page 0](page-0.md)\n\n## B\n\n* [Page 1](page-1.md)\n\n## C\n\n* [Elsewhere](https://example.com)\n',
      },
      'groups and links',
    );
    const grouped = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(grouped.operation.state, 'failure', JSON.stringify(grouped));
    assert.match(grouped.operation.error, /SPACE_MAX_PAGES/);
    assert.equal((await currentRevision(t, spaceId)).id, before.id);
  });
});
