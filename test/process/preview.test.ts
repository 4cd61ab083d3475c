import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  eventually,
  type PreviewProcess,
  pageText,
  previewFolder,
  SITE_FILES,
  startPreview,
  writeFiles,
} from '../helpers/preview.js';

/**
 * `livery preview <folder>` as a real process (docs/preview.md): a folder the test writes, read
 * through HTTP; changes saved by the test, seen over HTTP and in the events stream.
 */

const SPACE = {
  'README.md': '# Welcome\n\nThe first words of the folder.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
  'guide.md': '# Guide\n\nThe guide says one thing.\n',
};

/** The versions an events stream announces, as they come. */
async function followEvents(url: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/__livery/preview/events`, { signal: controller.signal });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const versions: number[] = [];
  const reader = response.body?.getReader();
  assert.ok(reader);
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += new TextDecoder().decode(value);
      for (const match of buffer.matchAll(/event: version\ndata: (\d+)\n\n/g))
        versions.push(Number(match[1]));
      buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
    }
  })();
  return { versions, close: () => controller.abort() };
}

describe('livery preview of a plain folder (not a git repository)', () => {
  let folder: string;
  let preview: PreviewProcess;
  before(async () => {
    folder = previewFolder(SPACE);
    preview = await startPreview(folder);
  });
  after(async () => {
    await preview.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the site is at the root of the port; another name of the machine is sent there', async () => {
    const first = await pageText(`${preview.url}/`);
    assert.equal(first.status, 200);
    assert.match(first.text, /The first words of the folder\./);
    assert.match(
      first.text,
      /<script src="\/__livery\/preview\/reload\.js" data-version="\d+" defer>/,
    );
    const guide = await pageText(`${preview.url}/guide`);
    assert.match(guide.text, /The guide says one thing\./);
    const script = await fetch(`${preview.url}/__livery/preview/reload.js`);
    assert.match(await script.text(), /new EventSource\('\/__livery\/preview\/events'\)/);
    // Another name of the machine (Host: localhost:<port>): sent to the address printed.
    const other = await new Promise<{ status: number | undefined; location: string | undefined }>(
      (done, fail) => {
        const { hostname, port } = new URL(preview.url);
        get(
          { hostname, port, path: '/guide?x=1', headers: { host: `localhost:${port}` } },
          (res) => {
            res.resume();
            done({ status: res.statusCode, location: res.headers.location });
          },
        ).on('error', fail);
      },
    );
    assert.deepEqual(other, { status: 302, location: `${preview.url}/guide?x=1` });
  });

  test('a saved file shows over HTTP, and open pages are told over the events stream', async () => {
    const events = await followEvents(preview.url);
    try {
      const first = await eventually(async () => events.versions[0], 'the current version');
      writeFileSync(join(folder, 'guide.md'), '# Guide\n\nThe guide now says another.\n');
      await eventually(
        async () => events.versions.find((v) => v > first),
        'an event with a newer version',
      );
      const guide = await pageText(`${preview.url}/guide`);
      assert.match(guide.text, /The guide now says another\./);
      assert.match(preview.stdout(), /updated in \d+ ms/);
      // A new page, listed in the summary, appears too.
      writeFiles(folder, {
        'faq.md': '# FAQ\n\nQuestions, answered.\n',
        'SUMMARY.md': `${SPACE['SUMMARY.md']}* [FAQ](faq.md)\n`,
      });
      const faq = await eventually(async () => {
        const page = await pageText(`${preview.url}/faq`);
        return page.status === 200 ? page.text : undefined;
      }, 'the new page');
      assert.match(faq, /Questions, answered\./);
    } finally {
      events.close();
    }
  });

  test('bad YAML and a summary entry to a missing file: a banner and stderr, the last good content kept', async () => {
    writeFiles(folder, { '.gitbook.yaml': 'structure:\n  readme: README.md\n  summary: [\n' });
    const banner = await eventually(async () => {
      const page = await pageText(`${preview.url}/guide`);
      return page.text.includes('livery-preview-banner') ? page.text : undefined;
    }, 'the banner');
    assert.match(banner, /<code>\.gitbook\.yaml:\d+<\/code> invalid YAML/);
    assert.match(banner, /the last good content is shown/);
    assert.match(banner, /The guide (now says another|says one thing)\./, 'the last good content');
    await eventually(
      async () =>
        /error: \.gitbook\.yaml:\d+: invalid YAML/.test(preview.stderr()) ? true : undefined,
      'the error on stderr',
    );
    assert.equal(preview.child.exitCode, null, 'the preview keeps running');

    // Fixed YAML, and a summary entry whose file does not exist (its name is markup: escaped).
    writeFiles(folder, {
      '.gitbook.yaml': 'structure:\n  readme: README.md\n',
      'SUMMARY.md': `${SPACE['SUMMARY.md']}* [Lost](lost&x'<b>.md)\n`,
    });
    const warned = await eventually(async () => {
      const page = await pageText(`${preview.url}/guide`);
      return /SUMMARY\.md:5/.test(page.text) ? page.text : undefined;
    }, 'the summary warning in the banner');
    assert.doesNotMatch(warned, /invalid YAML/);
    assert.doesNotMatch(warned, /lost&x'<b>/, 'file names are escaped');
    assert.match(warned, /&quot;lost&amp;x&#39;&lt;b&gt;\.md&quot; does not exist/);
    await eventually(
      async () => (/warning: SUMMARY\.md:5: /.test(preview.stderr()) ? true : undefined),
      'the warning on stderr',
    );
    const status = (await (await fetch(`${preview.url}/__livery/preview/status`)).json()) as {
      problems: { file: string; line?: number }[];
    };
    assert.deepEqual(
      status.problems.map((p) => `${p.file}:${p.line}`),
      ['SUMMARY.md:5'],
    );

    // Everything right again: no banner.
    writeFiles(folder, { 'SUMMARY.md': SPACE['SUMMARY.md'] });
    await eventually(async () => {
      const page = await pageText(`${preview.url}/guide`);
      return page.text.includes('livery-preview-banner') ? undefined : true;
    }, 'the banner gone');
    assert.equal(preview.child.exitCode, null);
  });

  test('read-only: writes refused, no API, no studio', async () => {
    const post = await fetch(`${preview.url}/v1/orgs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"x"}',
    });
    assert.equal(post.status, 403);
    const body = (await post.json()) as { error: { code: number; message: string } };
    assert.equal(body.error.code, 403);
    assert.match(body.error.message, /read-only/);
    const feedback = await fetch(`${preview.url}/@livery/view`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"siteSpaceId":"a","pageId":"b"}',
    });
    assert.equal(feedback.status, 403);
    assert.equal((await fetch(`${preview.url}/v1/orgs`)).status, 404, 'no API is served');
    assert.equal((await fetch(`${preview.url}/studio`)).status, 404);
  });
});

describe('livery preview: a git checkout, links, and its throwaway database', () => {
  let folder: string;
  let outside: string;
  let temp: string;
  let preview: PreviewProcess;
  before(async () => {
    folder = previewFolder(SPACE);
    outside = mkdtempSync(join(tmpdir(), 'livery-preview-outside-'));
    writeFileSync(join(outside, 'secret.md'), '# Secret\n\nTOP SECRET words.\n');
    symlinkSync(join(outside, 'secret.md'), join(folder, 'leak.md'));
    symlinkSync(join(folder, 'guide.md'), join(folder, 'alias.md'));
    writeFiles(folder, {
      'SUMMARY.md': `${SPACE['SUMMARY.md']}* [Leak](leak.md)\n* [Alias](alias.md)\n* [Up](../secret.md)\n`,
    });
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: folder,
        env: {
          PATH: process.env.PATH ?? '',
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.com',
        },
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'first');
    // Saved, never committed.
    writeFileSync(join(folder, 'README.md'), '# Welcome\n\nAn edit nobody committed.\n');
    temp = mkdtempSync(join(tmpdir(), 'livery-preview-tmp-'));
    preview = await startPreview(folder, { TMPDIR: temp });
  });
  after(async () => {
    await preview.stop();
    for (const dir of [folder, outside, temp]) rmSync(dir, { recursive: true, force: true });
  });

  test('the working tree is read: an uncommitted edit shows', async () => {
    const first = await pageText(`${preview.url}/`);
    assert.match(first.text, /An edit nobody committed\./);
  });

  test('nothing is read outside the folder; a link inside it is followed', async () => {
    const leak = await pageText(`${preview.url}/leak`);
    assert.equal(leak.status, 404);
    const alias = await pageText(`${preview.url}/alias`);
    assert.equal(alias.status, 200);
    assert.match(alias.text, /The guide says one thing\./);
    const status = (await (await fetch(`${preview.url}/__livery/preview/status`)).json()) as {
      problems: { file: string; message: string }[];
    };
    assert.ok(
      status.problems.some((p) => p.file === 'leak.md' && /symbolic link/.test(p.message)),
      JSON.stringify(status.problems),
    );
    for (const path of ['', 'guide', 'alias', 'leak', 'secret']) {
      const page = await pageText(`${preview.url}/${path}`);
      assert.doesNotMatch(page.text, /TOP SECRET/);
    }
  });

  test('stopped, it removes its database', async () => {
    const made = readdirSync(temp).filter((name) => name.startsWith('livery-preview-'));
    assert.equal(made.length, 1, `its temporary directory: ${readdirSync(temp).join(', ')}`);
    assert.ok(existsSync(join(temp, made[0] ?? '', 'preview.db')));
    assert.equal(await preview.stop('SIGINT'), 0);
    assert.match(preview.stdout(), /stopped \(SIGINT\)/);
    assert.deepEqual(
      readdirSync(temp).filter((name) => name.startsWith('livery-preview-')),
      [],
    );
  });
});

describe('livery preview of a docs.yaml site (sections, a group, a link, two languages)', () => {
  let folder: string;
  let preview: PreviewProcess;
  before(async () => {
    folder = previewFolder(SITE_FILES);
    preview = await startPreview(folder);
  });
  after(async () => {
    await preview.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test('every section and variant answers at its address from the root', async () => {
    assert.match(preview.stderr(), /notice: docs\.yaml: a whole site, 2 sections, 3 variants/);
    const home = await pageText(`${preview.url}/`);
    assert.equal(home.status, 200);
    assert.match(home.text, /The guides begin here\./);
    // The section tabs, the group and its external link are in the page's navigation.
    for (const text of ['Product', 'API', 'More', 'Status page', 'https://status.example.com/'])
      assert.ok(home.text.includes(text), `the home page names ${text}`);
    // The customization file is applied: the site's theme has its colour.
    const theme = /href="(\/@livery\/theme\/[^"]+\.css)"/.exec(home.text)?.[1];
    assert.ok(theme, 'the page links its theme');
    assert.match(await (await fetch(`${preview.url}${theme}`)).text(), /#0b6e4f/i);
    const pages: [string, RegExp][] = [
      ['/install', /Install it in three steps\./],
      ['/fr/', /Les guides commencent ici\./],
      ['/api/', /The reference of the API\./],
      ['/api/tokens', /A token opens the API\./],
    ];
    for (const [path, text] of pages) {
      const page = await pageText(`${preview.url}${path}`);
      assert.equal(page.status, 200, path);
      assert.match(page.text, text, path);
      assert.match(page.text, /data-version="\d+"/, `${path} has the reload script`);
    }
  });

  test('a change to a page of one section shows; the other sections keep their pages', async () => {
    const before = preview.stdout().split('\n').length;
    writeFiles(folder, {
      'api/tokens.md': '# Tokens\n\nA token opens the API, and now expires.\n',
    });
    await eventually(async () => {
      const page = await pageText(`${preview.url}/api/tokens`);
      return /now expires\./.test(page.text) ? true : undefined;
    }, 'the changed page');
    assert.match(
      preview
        .stdout()
        .split('\n')
        .slice(before - 1)
        .join('\n'),
      /updated in \d+ ms/,
    );
    const guides = await pageText(`${preview.url}/install`);
    assert.match(guides.text, /Install it in three steps\./);
  });

  test('a docs.yaml with two default sections: banner and stderr name the rule and key, the last good site stays', async () => {
    const good = SITE_FILES['docs.yaml'] ?? '';
    writeFiles(folder, {
      'docs.yaml': good.replace(
        '          path: api\n',
        '          path: api\n          default: true\n',
      ),
    });
    const page = await eventually(async () => {
      const p = await pageText(`${preview.url}/api/tokens`);
      return /livery-preview-banner/.test(p.text) ? p : undefined;
    }, 'the banner');
    assert.equal(page.status, 200);
    assert.match(page.text, /now expires\./, 'the last good site is served');
    assert.match(page.text, /one-default-section/);
    assert.match(page.text, /node &quot;api&quot;|node "api"/);
    assert.match(page.text, /docs\.yaml:\d+/);
    await eventually(
      async () =>
        /error: docs\.yaml:\d+: node "api": .*\(rule: one-default-section\)/.test(preview.stderr())
          ? true
          : undefined,
      'the violation on stderr',
    );
    const home = await pageText(`${preview.url}/`);
    assert.match(home.text, /The guides begin here\./);
    writeFiles(folder, { 'docs.yaml': good });
    await eventually(async () => {
      const p = await pageText(`${preview.url}/api/tokens`);
      return /livery-preview-banner/.test(p.text) ? undefined : true;
    }, 'the banner gone once fixed');
  });
});
