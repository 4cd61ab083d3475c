import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, afterEach, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectStatus } from '../helpers/app.js';
import {
  type StudioSite,
  type StudioSuite,
  screenshot,
  signIn,
  signInAndOpen,
  startStudioSuite,
  studioSite,
  until,
} from '../helpers/studio-browser.js';

/**
 * Livery Studio in Chromium (issue 18): saving against someone else's concurrent write (412: the
 * conflict dialog, "Apply mine on top", "Reload"), restoring from the history panel, "Undo last
 * save", Escape on the dialogs, and CSRF: another origin's requests in the signed-in browser and a
 * same-origin write without the CSRF header change nothing. Screenshots of the conflict and the
 * history go to test-results/ (and docs/images/ with LIVERY_UPDATE_SCREENSHOTS=1).
 */
let s: StudioSuite;

before(async () => {
  s = await startStudioSuite();
});
after(async () => s?.close());
afterEach(() => {
  assert.deepEqual(s.problems.splice(0), []);
});

/** Chromium logs each 4xx a test provokes on purpose ("Failed to load resource"); only those go. */
function provoked(status: number): void {
  const message = `console: Failed to load resource: the server responded with a status of ${status} `;
  for (let i = s.problems.length - 1; i >= 0; i--) {
    if (s.problems[i]?.startsWith(message)) s.problems.splice(i, 1);
  }
}

type Settings = { title?: string; styling: { primaryColor: { light: string; dark: string } } };

const settingsOf = async (site: StudioSite) =>
  expectStatus(
    await s.t.request({ method: 'GET', url: `${site.base}/customization` }),
    200,
  ) as Settings;

/** Someone else's write through the API, behind the studio's back. */
async function theirWrite(site: StudioSite, change: (settings: Settings) => void): Promise<void> {
  const settings = await settingsOf(site);
  change(settings);
  expectStatus(
    await s.t.request({ method: 'PUT', url: `${site.base}/customization`, payload: settings }),
    200,
  );
}

/** A fresh site (with one saved revision) open in the studio's site editor. */
async function openSiteEditor(basename: string): Promise<{ page: Page; site: StudioSite }> {
  const site = await studioSite(s.t, basename);
  await theirWrite(site, (settings) => {
    settings.title = 'Acme Docs';
  });
  const page = await s.page();
  await signInAndOpen(page, s.t.token, `#/orgs/${s.t.orgId}/sites/${site.siteId}`);
  await primary(page).waitFor();
  return { page, site };
}

const primary = (page: Page) => page.locator('input[data-setting="styling.primaryColor.light"]');

/** Clicks Save and answers the status of the PUT it sends. */
async function clickSave(page: Page): Promise<number> {
  const response = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith('/customization'),
  );
  await page.getByTestId('save').click();
  return (await response).status();
}

test('a 412: the conflict dialog lists their change; Escape closes it; "Apply mine on top" keeps both', async () => {
  const { page, site } = await openSiteEditor('conflict');
  await primary(page).fill('#112233');
  await theirWrite(site, (settings) => {
    settings.title = 'Acme by them';
  });

  assert.equal(await clickSave(page), 412);
  const dialog = page.getByTestId('conflict-dialog');
  await dialog.getByText('Acme by them').waitFor();
  assert.match((await dialog.textContent()) ?? '', /title/);
  await screenshot(page, 'studio-conflict');

  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await primary(page).inputValue(), '#112233', 'my edit is kept');

  assert.equal(await clickSave(page), 412, 'saving again still meets their version');
  await dialog.getByText('Acme by them').waitFor();
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith('/customization'),
  );
  await page.getByTestId('apply-mine').click();
  assert.equal((await saved).status(), 200);
  await page.getByTestId('save').filter({ hasText: 'Saved' }).waitFor();
  const stored = await settingsOf(site);
  assert.equal(stored.styling.primaryColor.light, '#112233', 'mine');
  assert.equal(stored.title, 'Acme by them', 'theirs');
  provoked(412);
  await page.close();
});

test('a 412 answered with "Reload": their version replaces my edits', async () => {
  const { page, site } = await openSiteEditor('reload');
  const before = (await settingsOf(site)).styling.primaryColor.light;
  await primary(page).fill('#445566');
  await theirWrite(site, (settings) => {
    settings.title = 'Their second title';
  });
  assert.equal(await clickSave(page), 412);
  const dialog = page.getByTestId('conflict-dialog');
  await dialog.getByText('Their second title').waitFor();
  await page.getByTestId('reload').click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await primary(page).inputValue(), before, 'my edit is dropped');
  assert.equal(
    await page.locator('input[data-setting="title"]').inputValue(),
    'Their second title',
  );
  assert.ok(await page.getByTestId('save').isDisabled(), 'nothing left to save');
  const stored = await settingsOf(site);
  assert.equal(stored.styling.primaryColor.light, before);
  assert.equal(stored.title, 'Their second title');
  provoked(412);
  await page.close();
});

test('history: restore an older revision after confirming (Escape cancels); undo the last save', async () => {
  const { page, site } = await openSiteEditor('history');
  for (const colour of ['#aa0000', '#00aa00']) {
    await primary(page).fill(colour);
    assert.equal(await clickSave(page), 200);
    await page.getByTestId('save').filter({ hasText: 'Saved' }).waitFor();
  }
  assert.equal((await settingsOf(site)).styling.primaryColor.light, '#00aa00');

  // Revisions: 1 the title (API), 2 red, 3 green.
  await page.getByTestId('history').click();
  const panel = page.getByTestId('history-panel');
  await panel.getByTestId('revision-3').waitFor();
  await panel.getByTestId('revision-2').locator('summary').click();
  await panel.getByTestId('revision-2').getByText('#aa0000').first().waitFor();
  await screenshot(page, 'studio-history');

  const confirm = page.getByRole('dialog', { name: 'Restore revision #2?' });
  await panel.getByTestId('restore-2').click();
  await confirm.waitFor();
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'hidden' });
  assert.equal((await settingsOf(site)).styling.primaryColor.light, '#00aa00', 'nothing restored');
  await panel.waitFor(); // Escape closed the dialog, not the panel under it

  await panel.getByTestId('restore-2').click();
  const restored = page.waitForResponse((r) => r.url().endsWith('/revisions/2/restore'));
  await confirm.getByTestId('confirm').click();
  assert.equal((await restored).status(), 200);
  assert.equal((await settingsOf(site)).styling.primaryColor.light, '#aa0000');
  await until('the restored colour in the form', async () =>
    (await primary(page).inputValue()) === '#aa0000' ? true : undefined,
  );

  // Undo last save: one click restores what was there before the save.
  await primary(page).fill('#0000aa');
  assert.equal(await clickSave(page), 200);
  await page.getByTestId('save').filter({ hasText: 'Saved' }).waitFor();
  assert.equal((await settingsOf(site)).styling.primaryColor.light, '#0000aa');
  const undone = page.waitForResponse((r) => r.url().endsWith('/restore'));
  await page.getByTestId('undo').click();
  assert.equal((await undone).status(), 200);
  assert.equal((await settingsOf(site)).styling.primaryColor.light, '#aa0000');
  await until('the restored colour in the form', async () =>
    (await primary(page).inputValue()) === '#aa0000' ? true : undefined,
  );
  await page.close();
});

test('history: a long one shows its newest page, and "Show older revisions" brings the rest', async () => {
  const { page, site } = await openSiteEditor('long-history');
  // 1 revision from openSiteEditor, then 54 more: 55, one more than a page of 50 and five more.
  for (let n = 2; n <= 55; n++) {
    await theirWrite(site, (settings) => {
      settings.title = `Title ${n}`;
    });
  }
  await page.reload();
  await primary(page).waitFor();
  await page.getByTestId('history').click();
  const panel = page.getByTestId('history-panel');
  await panel.getByTestId('revision-55').waitFor();
  assert.equal(await panel.locator('[data-testid^="revision-"]').count(), 50);
  assert.equal(await panel.getByTestId('revision-5').count(), 0);
  await panel.getByTestId('history-older').click();
  await panel.getByTestId('revision-1').waitFor();
  assert.equal(await panel.locator('[data-testid^="revision-"]').count(), 55);
  assert.equal(await panel.getByTestId('history-older').count(), 0, 'no older page is left');
  await page.close();
});

/** A page of another origin that tries writes to the studio's API with the browser's cookies. */
function attackerPage(target: string): string {
  return `<!doctype html><title>Not the studio</title>
<iframe name="sink" title="sink"></iframe>
<form id="unpublish" method="post" action="${target}/unpublish" target="sink"></form>
<form id="customize" method="post" enctype="text/plain" action="${target}/customization" target="sink">
<input name='{"styling":{"primaryColor":{"light":"#ff0000","dark":"#ff0000"}},"x":"' value='"}'>
</form>`;
}

test('CSRF: another origin’s form posts and fetches change nothing; a write without x-csrf-token is refused', async () => {
  const site = await studioSite(s.t, 'csrf');
  const before = await settingsOf(site);
  const page = await s.page();
  await signIn(page, s.t.token);
  const target = `${s.origin}${site.base}`;
  const attacker: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(attackerPage(target));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  const address = attacker.address();
  assert.ok(address !== null && typeof address === 'object');
  const evilOrigin = `http://127.0.0.1:${address.port}`;
  try {
    // Same browser, same cookies: the attacker's page in a second tab.
    const evil = await page.context().newPage();
    await evil.goto(`${evilOrigin}/`);
    for (const form of ['unpublish', 'customize']) {
      const loaded = evil.waitForEvent('framenavigated', (frame) => frame.name() === 'sink');
      await evil.locator(`#${form}`).evaluate((element) => element.submit());
      await loaded;
    }
    const fetched = await evil.evaluate(async (url) => {
      const outcomes: string[] = [];
      const attempts: [string, RequestInit][] = [
        [`${url}/unpublish`, { method: 'POST', mode: 'no-cors' }],
        [`${url}/customization`, { method: 'POST', mode: 'no-cors', body: '{"title":"Hacked"}' }],
        [
          `${url}/customization`,
          {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: '{"title":"Hacked"}',
          },
        ],
      ];
      for (const [to, init] of attempts) {
        outcomes.push(
          await fetch(to, { ...init, credentials: 'include' }).then(
            (response) => `${init.method} ${response.type} ${response.status}`,
            (error: unknown) => `${init.method} refused: ${String(error)}`,
          ),
        );
      }
      return outcomes;
    }, target);
    assert.match(fetched[2] ?? '', /PUT refused/, 'a cross-origin PUT is stopped by CORS');
    await evil.close();
  } finally {
    await new Promise((resolve) => attacker.close(resolve));
  }
  // Nothing changed: still published, same settings.
  const after = await settingsOf(site);
  assert.deepEqual(after, before);
  const published = expectStatus(await s.t.request({ method: 'GET', url: site.base }), 200);
  assert.equal(published.published, true, 'still published');

  // From the studio's own page, a write without the CSRF header is refused.
  const answer = await page.evaluate(async (url) => {
    const response = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"No token"}',
    });
    return { status: response.status, body: await response.text() };
  }, `${site.base}/customization`);
  assert.equal(answer.status, 403);
  const envelope = JSON.parse(answer.body) as { error: { code: number; message: string } };
  assert.equal(envelope.error.code, 403);
  assert.match(envelope.error.message, /x-csrf-token/);
  assert.deepEqual(await settingsOf(site), before);
  provoked(403);
  // The attacker's page was another origin on purpose: its requests are not the studio's.
  for (let i = s.problems.length - 1; i >= 0; i--) {
    if (s.problems[i]?.includes(evilOrigin) || s.problems[i]?.includes('CORS')) {
      s.problems.splice(i, 1);
    }
  }
  await page.close();
});
