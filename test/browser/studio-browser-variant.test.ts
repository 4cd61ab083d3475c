import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectStatus } from '../helpers/app.js';
import { memberWithRole } from '../helpers/roles.js';
import {
  type StudioSite,
  type StudioSuite,
  screenshot,
  signInAndOpen,
  startStudioSuite,
  studioSite,
  until,
  visiblePreview,
} from '../helpers/studio-browser.js';

/**
 * Livery Studio in Chromium (issue 18): a variant's override and its reset to the site's value, a
 * reader's read-only view, and the generated form covering every setting of the schema.
 * Screenshots of the variant and the read-only view go to test-results/ (and docs/images/ with
 * LIVERY_UPDATE_SCREENSHOTS=1).
 */
let s: StudioSuite;
let site: StudioSite;
const SITE_COPYRIGHT = '© Acme Inc.';

before(async () => {
  s = await startStudioSuite();
  site = await studioSite(s.t);
  // The site's own copyright (a variant inherits it) and lists, so list editors show.
  expectStatus(
    await s.t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: {
        footer: {
          copyright: SITE_COPYRIGHT,
          groups: [
            {
              title: 'Product',
              links: [{ title: 'Docs', to: { kind: 'url', url: `${s.origin}/docs/` } }],
            },
          ],
        },
        header: {
          links: [{ title: 'Guides', to: { kind: 'url', url: `${s.origin}/docs/` }, links: [] }],
        },
      },
    }),
    200,
  );
});
after(async () => s?.close());
afterEach(() => {
  assert.deepEqual(s.problems.splice(0), []);
});

const siteHash = () => `#/orgs/${s.t.orgId}/sites/${site.siteId}`;
const variantId = () => site.siteSpaceIds[1] as string;
const overrideOf = async () =>
  (
    expectStatus(
      await s.t.request({
        method: 'GET',
        url: `${site.base}/site-spaces/${variantId()}/customization/override`,
      }),
      200,
    ) as { override: Record<string, unknown> }
  ).override;

async function saveAndWait(page: Page, method: string): Promise<void> {
  const saved = page.waitForResponse(
    (response) => response.request().method() === method && /\/customization$/.test(response.url()),
  );
  await page.getByTestId('save').click();
  assert.equal((await saved).status(), 200);
  await page.getByTestId('save').filter({ hasText: 'Saved' }).waitFor();
}

/*
 * The field reset here is the footer's copyright, not the title: a variant's `title: null` means
 * "no title of its own" (docs/customization.md), so only DELETE brings the site's title back.
 */
test('a variant: override a field, see it overridden, reset it to the site value', async () => {
  const page = await s.page();
  await signInAndOpen(page, s.t.token, siteHash());
  await page.getByTestId(`variant-${variantId()}`).click();
  const copyright = page.locator('[data-setting="footer.copyright"]');
  const field = page.locator('[data-field="footer.copyright"]');
  // The footer's section starts closed: open it as a reader of the form does.
  await page.locator('details[data-section="footer"] > summary').click();
  await copyright.waitFor();
  assert.equal(await field.getAttribute('data-state'), 'inherited');
  assert.equal(await copyright.inputValue(), SITE_COPYRIGHT, 'the inherited value is the site’s');

  await copyright.fill('© Acme GmbH');
  await page.locator('[data-field="footer.copyright"][data-state="overridden"]').waitFor();
  await saveAndWait(page, 'PATCH');
  assert.deepEqual(await overrideOf(), { footer: { copyright: '© Acme GmbH' } });
  assert.equal(await field.getAttribute('data-state'), 'overridden');
  await page.locator('[data-field="styling.primaryColor"][data-state="inherited"]').waitFor();
  await until('the variant’s preview with its copyright', async () => {
    const text = await (await visiblePreview(page))?.textContent();
    return text?.includes('© Acme GmbH') === true ? true : undefined;
  });
  await field.evaluate((el) => {
    // The form pane scrolls to the field; the window itself stays at the top.
    el.scrollIntoView({ block: 'center' });
    el.ownerDocument.defaultView?.scrollTo(0, 0);
  });
  await screenshot(page, 'studio-variant');

  const patched = page.waitForRequest(
    (request) => request.method() === 'PATCH' && /\/customization$/.test(request.url()),
  );
  await page.locator('[data-reset="footer.copyright"]').click();
  await saveAndWait(page, 'PATCH');
  assert.deepEqual((await patched).postDataJSON(), { footer: { copyright: null } });
  const after = await overrideOf();
  assert.deepEqual(after, {}, 'the override no longer has the copyright');
  assert.equal(await field.getAttribute('data-state'), 'inherited');
  assert.equal(await copyright.inputValue(), SITE_COPYRIGHT);
  await page.close();
});

test('a reader sees everything read-only, with the reason, and sends nothing', async () => {
  const reader = await memberWithRole(s.t, 'read');
  const page = await s.page();
  const writes: string[] = [];
  page.on('request', (request) => {
    const preview = request.method() === 'POST' && request.url().endsWith('/preview');
    const session = request.url().includes('/studio/session');
    if (request.method() !== 'GET' && !preview && !session) {
      writes.push(`${request.method()} ${request.url()}`);
    }
  });
  await signInAndOpen(page, reader.token, siteHash());
  const notice = page.getByTestId('read-only-notice');
  await notice.waitFor();
  assert.match((await notice.textContent()) ?? '', /needs the admin role/);
  await page.locator('[data-setting="styling.primaryColor.light"]').first().waitFor();
  const enabled = await page
    .locator('input[data-setting], select[data-setting], textarea[data-setting]')
    .evaluateAll((elements) =>
      elements
        .filter((el) => !el.matches(':disabled'))
        .map((el) => el.getAttribute('data-setting')),
    );
  assert.deepEqual(enabled, [], 'every setting control is disabled');
  const save = page.getByTestId('save');
  assert.ok((await save.count()) === 0 || (await save.isDisabled()), 'no Save button to press');
  // Trying anyway: typing into a disabled field and the keyboard's Enter change nothing.
  await page
    .locator('input[data-setting="title"]')
    .press('Enter')
    .catch(() => undefined);
  await screenshot(page, 'studio-read-only');
  assert.deepEqual(writes, [], 'nothing is written');
  await page.close();
});

/** The schema as /studio/schema.json gives it (only what the walk below reads). */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

interface Leaf {
  path: string;
  /** an array: a list editor, whose container carries the path */
  list: boolean;
}

/**
 * The paths a control must carry: objects recurse; a `{light, dark}` pair gives both; a map
 * (localized texts), an array (a list editor's container) or a one-of (a kind chooser: fonts,
 * link targets) is one control at its own path; `null` alternatives are ignored.
 */
function leafPaths(schema: JsonSchema, path = ''): Leaf[] {
  const branches = (schema.anyOf ?? schema.oneOf ?? []).filter((b) => b.type !== 'null');
  if (schema.type === undefined && branches.length === 1) {
    return leafPaths(branches[0] as JsonSchema, path);
  }
  if (branches.length > 1) return [{ path, list: false }];
  if (schema.type === 'object' && schema.properties !== undefined) {
    const keys = Object.keys(schema.properties);
    if (keys.length === 2 && keys.includes('light') && keys.includes('dark')) {
      return [`${path}.light`, `${path}.dark`].map((pair) => ({ path: pair, list: false }));
    }
    return Object.entries(schema.properties).flatMap(([key, inner]) =>
      leafPaths(inner, path === '' ? key : `${path}.${key}`),
    );
  }
  return [{ path, list: schema.type === 'array' }];
}

/**
 * Paths represented differently on purpose (each reported): the favicon is a one-of written as an
 * object with at most one key, so its kind chooser `[data-setting=favicon]` stands for its fields;
 * `pageActions.externalAI` and `.markdown` are GitBook 0.130's switches, kept in step with
 * `pageActions.items` by the server (src/settings/canonical.ts): the list edits them.
 */
const REPRESENTED_BY: Record<string, string> = {
  'favicon.icon.light': 'favicon',
  'favicon.icon.dark': 'favicon',
  'favicon.emoji': 'favicon',
  'pageActions.externalAI': 'pageActions.items',
  'pageActions.markdown': 'pageActions.items',
};

/**
 * The paths without a control. A value that is set needs a control carrying its path (a list: its
 * container); an absent optional value may instead show an Add button (`data-add`) for itself or
 * for the optional group holding it.
 */
async function missingControls(page: Page, leaves: Leaf[], settings: unknown): Promise<string[]> {
  const marks = await page
    .locator('[data-setting], [data-add]')
    .evaluateAll((elements) =>
      elements.map((el) => [el.getAttribute('data-setting'), el.getAttribute('data-add')]),
    );
  const carried = new Set(marks.map(([setting]) => setting));
  const adds = marks.flatMap(([, add]) => (add === null || add === undefined ? [] : [add]));
  const has = (path: string) =>
    path
      .split('.')
      .reduce<unknown>(
        (value, key) =>
          value !== null && typeof value === 'object' ? Reflect.get(value, key) : undefined,
        settings,
      ) !== undefined;
  const addable = (path: string) =>
    !has(path) && adds.some((add) => path === add || path.startsWith(`${add}.`));
  return leaves
    .filter(({ path }) => !carried.has(path) && !addable(path))
    .map(({ path, list }) => (list ? `${path} (list container)` : path));
}

/** The schema's leaves (after the allow-list) and the site's stored settings. */
async function schemaLeaves(): Promise<{ leaves: Leaf[]; siteOnly: string[]; settings: unknown }> {
  const schema = expectStatus(
    await s.t.app.inject({ method: 'GET', url: '/studio/schema.json' }),
    200,
  ) as { settings: JsonSchema; siteOnly: string[] };
  const byPath = new Map<string, Leaf>();
  for (const leaf of leafPaths(schema.settings)) {
    const path = REPRESENTED_BY[leaf.path] ?? leaf.path;
    byPath.set(path, { path, list: leaf.list || byPath.get(path)?.list === true });
  }
  const leaves = [...byPath.values()];
  assert.ok(leaves.length > 50, `the walk found ${leaves.length} paths`);
  const settings = expectStatus(
    await s.t.request({ method: 'GET', url: `${site.base}/customization` }),
    200,
  );
  return { leaves, siteOnly: schema.siteOnly, settings };
}

test('the generated site form has a control for every setting of the schema', async () => {
  const { leaves, settings } = await schemaLeaves();
  const page = await s.page();
  await signInAndOpen(page, s.t.token, siteHash());
  await page.locator('[data-setting="styling.primaryColor.light"]').first().waitFor();
  assert.deepEqual(await missingControls(page, leaves, settings), [], 'settings without a control');
  await page.close();
});

test('a variant’s form has every setting but the site-only ones', async () => {
  const { leaves, siteOnly: keys, settings } = await schemaLeaves();
  const siteOnly = (path: string) => keys.some((key) => path === key || path.startsWith(`${key}.`));
  const page = await s.page();
  await signInAndOpen(page, s.t.token, `${siteHash()}/variants/${variantId()}`);
  await page.locator('[data-field="footer.copyright"][data-state]').waitFor({ state: 'attached' });
  assert.deepEqual(
    await missingControls(
      page,
      leaves.filter((leaf) => !siteOnly(leaf.path)),
      settings,
    ),
    [],
    'settings without a control',
  );
  const shown = await page
    .locator('[data-setting], [data-add]')
    .evaluateAll((elements) =>
      elements.map((el) => el.getAttribute('data-setting') ?? el.getAttribute('data-add') ?? ''),
    );
  assert.deepEqual(shown.filter(siteOnly), [], 'site-only settings in a variant');
  await page.close();
});
