import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ConfigError, loadConfig } from '../../src/config.js';
import { INVALIDATING_WRITES } from '../../src/modules/revalidation/triggers.js';
import {
  createSite,
  createTestApp,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import {
  doc,
  insertPage,
  mergeChangeRequest,
  newSpace,
  openChangeRequest,
} from '../helpers/content.js';
import { deadPort, metric, Receiver, SECRET, waitFor } from '../helpers/revalidation.js';

/**
 * Cache invalidation for GitBook's renderer (docs/renderer-cache.md): every write of the trigger
 * table delivers its tags, signed, to a local receiver that checks the signature as the renderer
 * does; failed deliveries are retried, logged and counted; reads carry the cache headers.
 */

const site = (id: string) => `site:${id}`;
const space = (id: string) => `space:${id}`;
const sorted = (tags: Iterable<string>) => [...new Set(tags)].sort();

/** An app whose renderer is `receiver`; retries 10 ms apart so that failures settle quickly. */
const appFor = (
  url: string,
  env: Record<string, string> = {},
  logStream?: { write(s: string): void },
) =>
  createTestApp(
    {
      RENDERER_REVALIDATE_URL: url,
      RENDERER_SECRET: SECRET,
      RENDERER_REVALIDATE_RETRY_MS: '10',
      ...env,
    },
    logStream,
  );

interface Case {
  /** The operationId the case drives (a row of INVALIDATING_WRITES). */
  op: string;
  /** Variants of the case's fresh site (default 2). */
  variants?: number;
  /** Writes before the one under test; they may notify too: their tags are awaited first. */
  setup?: (f: SiteFixture) => Promise<{ drain: string[]; state?: Record<string, string> }>;
  act: (f: SiteFixture, state: Record<string, string>) => Promise<LightMyRequestResponse>;
  status: number;
  tags: (f: SiteFixture, state: Record<string, string>) => string[];
}

describe('revalidation: every write of the table delivers its tags', () => {
  let t: TestContext;
  const receiver = new Receiver();
  before(async () => {
    await receiver.start();
    t = await appFor(receiver.url);
  });
  after(async () => {
    await t.close();
    await receiver.stop();
  });

  const req = (method: string, url: string, payload?: object) =>
    t.request({ method: method as 'POST', url, ...(payload === undefined ? {} : { payload }) });
  const siteTags = (f: SiteFixture) => [site(f.siteId)];
  /** A site write that may change the language of the site's spaces. */
  const withSpaces = (f: SiteFixture) => [site(f.siteId), ...f.spaceIds.map(space)];
  const shareLink = async (base: string) => {
    const res = expectStatus(await req('POST', `${base}/share-links`, { name: 'Team' }), 201);
    return res.id as string;
  };
  const spaceBase = (f: SiteFixture) => `/v1/spaces/${f.spaceIds[0]}`;
  /** Space-keyed forms act on the one site showing the space and name both. */
  const spaceKeyedTags = (f: SiteFixture) => [space(f.spaceIds[0] as string), site(f.siteId)];

  const cases: Case[] = [
    {
      op: 'publishSite',
      act: (f) => req('POST', `${f.base}/publish`),
      status: 200,
      tags: siteTags,
    },
    {
      op: 'unpublishSite',
      setup: async (f) => {
        expectStatus(await req('POST', `${f.base}/publish`), 200);
        return { drain: siteTags(f) };
      },
      act: (f) => req('POST', `${f.base}/unpublish`),
      status: 200,
      tags: siteTags,
    },
    {
      op: 'updateSiteById',
      act: (f) => req('PATCH', f.base, { title: 'Renamed', visibility: 'unlisted' }),
      status: 200,
      tags: siteTags,
    },
    { op: 'deleteSiteById', act: (f) => req('DELETE', f.base), status: 205, tags: withSpaces },
    {
      op: 'addSpaceToSite',
      setup: async () => ({ drain: [], state: { added: (await newSpace(t, 'Added')).id } }),
      act: (f, s) => req('POST', `${f.base}/site-spaces`, { spaceId: s.added }),
      status: 201,
      tags: (f, s) => [...withSpaces(f), space(s.added as string)],
    },
    {
      op: 'updateSiteSpaceById',
      setup: async () => ({ drain: [], state: { other: (await newSpace(t, 'Other')).id } }),
      act: (f, s) =>
        req('PATCH', `${f.base}/site-spaces/${f.siteSpaceIds[1]}`, {
          path: 'v2',
          spaceId: s.other,
        }),
      status: 200,
      // Before: the variant showed spaceIds[1]; after: `other`. Both languages may change.
      tags: (f, s) => [...withSpaces(f), space(s.other as string)],
    },
    {
      op: 'deleteSiteSpaceById',
      act: (f) => req('DELETE', `${f.base}/site-spaces/${f.siteSpaceIds[1]}`),
      status: 205,
      tags: withSpaces,
    },
    {
      op: 'updateSiteCustomizationById',
      act: (f) => req('PUT', `${f.base}/customization`, { title: 'Acme' }),
      status: 200,
      tags: withSpaces,
    },
    {
      op: 'overrideSiteSpaceCustomizationById',
      act: (f) =>
        req('PATCH', `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization`, {
          internationalization: { locale: 'de' },
        }),
      status: 200,
      tags: withSpaces,
    },
    {
      op: 'deleteSiteSpaceCustomizationById',
      setup: async (f) => {
        const url = `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization`;
        expectStatus(await req('PATCH', url, { title: 'Doku' }), 200);
        return { drain: withSpaces(f) };
      },
      act: (f) => req('DELETE', `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization`),
      status: 205,
      tags: withSpaces,
    },
    {
      op: 'createSiteShareLink',
      act: (f) => req('POST', `${f.base}/share-links`, { name: 'Team' }),
      status: 201,
      tags: siteTags,
    },
    {
      op: 'updateSiteShareLinkById',
      setup: async (f) => ({ drain: siteTags(f), state: { link: await shareLink(f.base) } }),
      act: (f, s) => req('PATCH', `${f.base}/share-links/${s.link}`, { active: false }),
      status: 200,
      tags: siteTags,
    },
    {
      op: 'deleteSiteShareLinkById',
      setup: async (f) => ({ drain: siteTags(f), state: { link: await shareLink(f.base) } }),
      act: (f, s) => req('DELETE', `${f.base}/share-links/${s.link}`),
      status: 205,
      tags: siteTags,
    },
    {
      op: 'updateSitePublishingAuthById',
      act: (f) =>
        req('PATCH', `${f.base}/publishing/auth`, {
          backend: 'custom',
          fallbackURL: 'https://auth.example.com/login',
        }),
      status: 200,
      tags: siteTags,
    },
    {
      op: 'regenerateSitePublishingAuthById',
      act: (f) => req('POST', `${f.base}/publishing/auth/regenerate`),
      status: 200,
      tags: siteTags,
    },
    {
      op: 'createSpaceShareLink',
      variants: 1,
      act: (f) => req('POST', `${spaceBase(f)}/share-links`, { name: 'Team' }),
      status: 201,
      tags: spaceKeyedTags,
    },
    {
      op: 'updateSpaceShareLinkById',
      variants: 1,
      setup: async (f) => ({ drain: siteTags(f), state: { link: await shareLink(f.base) } }),
      act: (f, s) => req('PATCH', `${spaceBase(f)}/share-links/${s.link}`, { name: 'Renamed' }),
      status: 200,
      tags: spaceKeyedTags,
    },
    {
      op: 'deleteSpaceShareLinkById',
      variants: 1,
      setup: async (f) => ({ drain: siteTags(f), state: { link: await shareLink(f.base) } }),
      act: (f, s) => req('DELETE', `${spaceBase(f)}/share-links/${s.link}`),
      status: 205,
      tags: spaceKeyedTags,
    },
    {
      op: 'updateSpacePublishingAuthById',
      variants: 1,
      act: (f) => req('PATCH', `${spaceBase(f)}/publishing/auth`, { backend: 'custom' }),
      status: 200,
      tags: spaceKeyedTags,
    },
    {
      op: 'regenerateSpacePublishingAuthById',
      variants: 1,
      act: (f) => req('POST', `${spaceBase(f)}/publishing/auth/regenerate`),
      status: 200,
      tags: spaceKeyedTags,
    },
    {
      op: 'mergeChangeRequest',
      setup: async (f) => {
        const spaceId = f.spaceIds[0] as string;
        const cr = await openChangeRequest(t, spaceId);
        await insertPage(t, spaceId, cr.id, doc('Intro'));
        return { drain: [], state: { cr: cr.id } };
      },
      act: (f, s) => req('POST', `/v1/spaces/${f.spaceIds[0]}/change-requests/${s.cr}/merge`),
      status: 200,
      tags: (f) => [space(f.spaceIds[0] as string), site(f.siteId)],
    },
    {
      op: 'updateSpaceById',
      act: (f) => req('PATCH', `/v1/spaces/${f.spaceIds[0]}`, { title: 'Renamed', language: 'fr' }),
      status: 200,
      tags: (f) => [space(f.spaceIds[0] as string), site(f.siteId)],
    },
    {
      op: 'deleteSpaceById',
      // A space a site shows cannot be deleted: this one was removed from the site first.
      setup: async (f) => {
        expectStatus(await req('DELETE', `${f.base}/site-spaces/${f.siteSpaceIds[1]}`), 205);
        return { drain: withSpaces(f) };
      },
      act: (f) => req('DELETE', `/v1/spaces/${f.spaceIds[1]}`),
      status: 205,
      tags: (f) => [space(f.spaceIds[1] as string)],
    },
    ...structureCases(),
  ];

  /** The site's structure (issue 29): a sectioned site made in setup, its tags drained. */
  function structureCases(): Case[] {
    const json = (res: LightMyRequestResponse) => res.json() as Record<string, unknown>;
    /** Makes the fixture's site sectioned: section B (a new space), group G, link L. */
    const sectioned = async (f: SiteFixture) => {
      const spaceId = (await newSpace(t, 'Section')).id;
      const b = expectStatus(await req('POST', `${f.base}/sections`, { spaceId }), 201);
      const g = expectStatus(await req('POST', `${f.base}/section-groups`, { title: 'G' }), 201);
      const l = expectStatus(
        await req('POST', `${f.base}/external-links`, { title: 'Link', url: 'https://x.test/' }),
        201,
      );
      return {
        drain: [...withSpaces(f), space(spaceId)],
        state: { b: b.id as string, g: g.id as string, l: l.id as string, spaceId },
      };
    };
    const siteOnly = (
      op: string,
      act: (f: SiteFixture, s: Record<string, string>) => Promise<LightMyRequestResponse>,
      status = 200,
    ): Case => ({ op, setup: sectioned, act, status, tags: siteTags });
    return [
      {
        op: 'addSectionToSite',
        setup: async () => ({ drain: [], state: { added: (await newSpace(t, 'Added')).id } }),
        act: (f, s) => req('POST', `${f.base}/sections`, { spaceId: s.added }),
        status: 201,
        tags: (f, s) => [...withSpaces(f), space(s.added as string)],
      },
      {
        op: 'deleteSiteSectionById',
        setup: sectioned,
        act: (f, s) => req('DELETE', `${f.base}/sections/${s.b}`),
        status: 205,
        tags: (f, s) => [...withSpaces(f), space(s.spaceId as string)],
      },
      {
        op: 'duplicateSiteSpace',
        act: async (f, s) => {
          const res = await req('POST', `${f.base}/site-spaces/${f.siteSpaceIds[0]}/duplicate`, {});
          s.copy = (json(res).space as { id: string }).id;
          return res;
        },
        status: 201,
        tags: (f, s) => [...withSpaces(f), space(s.copy as string)],
      },
      siteOnly('updateSiteSectionById', (f, s) =>
        req('PATCH', `${f.base}/sections/${s.b}`, { title: 'Bravo' }),
      ),
      siteOnly('moveSiteSection', (f, s) => req('POST', `${f.base}/sections/${s.b}/move`, {})),
      siteOnly(
        'addSectionGroupToSite',
        (f) => req('POST', `${f.base}/section-groups`, { title: 'H' }),
        201,
      ),
      siteOnly('updateSiteSectionGroupById', (f, s) =>
        req('PATCH', `${f.base}/section-groups/${s.g}`, { title: 'H' }),
      ),
      siteOnly(
        'deleteSiteSectionGroupById',
        (f, s) => req('DELETE', `${f.base}/section-groups/${s.g}`),
        205,
      ),
      siteOnly('moveSiteSectionGroup', (f, s) =>
        req('POST', `${f.base}/section-groups/${s.g}/move`, {}),
      ),
      siteOnly(
        'addExternalLinkToSite',
        (f) => req('POST', `${f.base}/external-links`, { title: 'More', url: 'https://m.test/' }),
        201,
      ),
      siteOnly('updateSiteExternalLinkById', (f, s) =>
        req('PATCH', `${f.base}/external-links/${s.l}`, { title: 'More' }),
      ),
      siteOnly(
        'deleteSiteExternalLinkById',
        (f, s) => req('DELETE', `${f.base}/external-links/${s.l}`),
        205,
      ),
      siteOnly('sortSiteStructure', (f, s) =>
        req('PATCH', `${f.base}/structure/sort`, {
          item: { type: 'site-external-link', id: s.l },
          position: {},
        }),
      ),
      siteOnly('moveSiteSpace', (f) =>
        req('POST', `${f.base}/site-spaces/${f.siteSpaceIds[1]}/move`, {}),
      ),
    ];
  }

  test('the cases drive every row of the table, and every row is an operation of the API', async () => {
    assert.deepEqual(sorted(cases.map((c) => c.op)), sorted(Object.keys(INVALIDATING_WRITES)));
    const spec = expectStatus(await t.request({ method: 'GET', url: '/openapi.json' }), 200) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operations = new Set(
      Object.values(spec.paths).flatMap((methods) =>
        Object.values(methods).map((operation) => operation.operationId),
      ),
    );
    const docs = await readFile(new URL('../../docs/renderer-cache.md', import.meta.url), 'utf8');
    for (const op of Object.keys(INVALIDATING_WRITES)) {
      assert.ok(operations.has(op), `${op} is an operation`);
      assert.ok(docs.includes(`\`${op}\``), `${op} is in docs/renderer-cache.md`);
    }
  });

  for (const c of cases) {
    test(`${c.op} → its tags, signed`, async () => {
      const f = await createSite(t, c.variants ?? 2);
      const { drain, state = {} } = (await c.setup?.(f)) ?? { drain: [] };
      if (drain.length > 0) await receiver.waitForTags(drain);
      receiver.reset();
      const res = await c.act(f, state);
      expectStatus(res, c.status);
      const expected = sorted(c.tags(f, state));
      await receiver.waitForTags(expected);
      // One write is one request to the renderer, with exactly its tags.
      assert.deepEqual(sorted(receiver.tags()), expected);
      assert.ok(
        receiver.calls.every((call) => call.signed),
        'every request is correctly signed',
      );
    });
  }

  test('a refused write delivers nothing', async () => {
    const f = await createSite(t);
    receiver.reset();
    expectStatus(await req('PATCH', f.base, { visibility: 'nope' }), 400);
    expectStatus(await req('POST', `${f.base}/share-links`, {}), 400);
    // A write that succeeds afterwards arrives alone: the refused ones queued nothing.
    expectStatus(await req('POST', `${f.base}/publish`), 200);
    await receiver.waitForTags([site(f.siteId)]);
    assert.deepEqual(receiver.tags(), [site(f.siteId)]);
  });

  test('reads: /metrics counts the deliveries', async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.ok((metric(text, 'renderer_revalidations_total{outcome="delivered"}') ?? 0) >= 1);
    assert.match(text, /^renderer_revalidation_pending_tags \d+$/m);
  });
});

/** Lines written by the app's logger (JSON), for the failure messages. */
class LogLines {
  readonly lines: Record<string, unknown>[] = [];
  write(chunk: string): void {
    for (const line of chunk.split('\n')) if (line.trim() !== '') this.lines.push(JSON.parse(line));
  }
  find(msg: string) {
    return this.lines.find((line) => line.msg === msg);
  }
}

const publish = async (t: TestContext, f: SiteFixture) =>
  expectStatus(await t.request({ method: 'POST', url: `${f.base}/publish` }), 200);
const metricsOf = async (t: TestContext) =>
  (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
/** Waits until /metrics shows `sample` at `value`; answers the metrics text then. */
async function waitForMetric(t: TestContext, sample: string, value: number): Promise<string> {
  let text = '';
  await waitFor(
    async () => {
      text = await metricsOf(t);
      return metric(text, sample) === value;
    },
    () => `${sample} ${value} in /metrics:\n${text}`,
  );
  return text;
}

describe('revalidation: delivery', () => {
  test('a renderer answering 500 is retried with backoff, then delivered', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const t = await appFor(receiver.url);
    try {
      receiver.answerNext(500, 503);
      const f = await createSite(t);
      await publish(t, f);
      await receiver.waitForTags([site(f.siteId)]);
      assert.deepEqual(
        receiver.calls.map((c) => c.status),
        [500, 503, 200],
      );
      assert.ok(receiver.calls.every((c) => c.signed && c.tags.includes(site(f.siteId))));
      // Counted once the renderer's answer is in, a moment after the receiver recorded the call.
      const text = await waitForMetric(t, 'renderer_revalidations_total{outcome="delivered"}', 1);
      assert.equal(metric(text, 'renderer_revalidation_retries_total'), 2);
      assert.equal(metric(text, 'renderer_revalidation_pending_tags'), 0);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  test('a renderer that is down: the write still succeeds; failures are logged and counted', async () => {
    const logs = new LogLines();
    const url = `http://127.0.0.1:${await deadPort()}/~gitbook/revalidate`;
    const t = await appFor(url, { RENDERER_REVALIDATE_ATTEMPTS: '3', LOG_LEVEL: 'warn' }, logs);
    try {
      const f = await createSite(t);
      await publish(t, f); // 200 although nothing listens
      const last = await waitForMetric(t, 'renderer_revalidations_total{outcome="failed"}', 1);
      assert.equal(metric(last, 'renderer_revalidation_retries_total'), 2);
      assert.equal(metric(last, 'renderer_revalidation_pending_tags'), 0);
      const retry = logs.find('renderer revalidation failed: will retry');
      assert.match(String(retry?.cause), /ECONNREFUSED/);
      const gaveUp = logs.find('renderer revalidation failed: giving up');
      assert.deepEqual(gaveUp?.tags, [site(f.siteId)]);
      assert.equal(gaveUp?.attempts, 3);
      assert.equal(gaveUp?.level, 50); // error
      // The server still answers, and still writes.
      expectStatus(await t.request({ method: 'POST', url: `${f.base}/unpublish` }), 200);
    } finally {
      await t.close();
    }
  });

  test('a wrong secret: the renderer refuses the signature (401), which is not retried', async () => {
    const receiver = new Receiver('another-secret');
    await receiver.start();
    const logs = new LogLines();
    const t = await appFor(receiver.url, { LOG_LEVEL: 'warn' }, logs);
    try {
      const f = await createSite(t);
      await publish(t, f);
      const text = await waitForMetric(t, 'renderer_revalidations_total{outcome="failed"}', 1);
      assert.deepEqual(
        receiver.calls.map((c) => [c.signed, c.status]),
        [[false, 401]],
      );
      assert.equal(metric(text, 'renderer_revalidation_retries_total'), 0);
      assert.equal(logs.find('renderer revalidation failed: giving up')?.cause, 'HTTP 401');
    } finally {
      await t.close();
      await receiver.stop();
    }
  });

  test('writes just before shutdown are delivered by app.close()', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const t = await appFor(receiver.url);
    const f = await createSite(t);
    await publish(t, f);
    await t.close(); // cancels the coalescing timer, sends what waits
    assert.deepEqual(receiver.tags(), [site(f.siteId)]);
    await receiver.stop();
  });

  test('without RENDERER_REVALIDATE_URL nothing is installed: writes work, no metric', async () => {
    const t = await createTestApp();
    try {
      const f = await createSite(t);
      await publish(t, f);
      const put = {
        method: 'PUT' as const,
        url: `${f.base}/customization`,
        payload: { title: 'Acme' },
      };
      expectStatus(await t.request(put), 200);
      assert.doesNotMatch(await metricsOf(t), /renderer_revalidation/);
    } finally {
      await t.close();
    }
  });
});

describe('revalidation: cache headers of the reads the renderer makes', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  const IMMUTABLE = 'public, max-age=31536000, immutable';
  const get = (url: string) => t.request({ method: 'GET', url });

  test('getSpaceById: tagged with the space, kept a day', async () => {
    const { id } = await newSpace(t);
    const res = await get(`/v1/spaces/${id}`);
    expectStatus(res, 200);
    assert.equal(res.headers['x-gitbook-cache-tag'], space(id));
    assert.equal(res.headers['x-gitbook-cache-control'], 'public, max-age=86400');
  });

  test('reads in a revision by id: immutable, tagged with the space', async () => {
    const { id } = await newSpace(t);
    const cr = await openChangeRequest(t, id);
    const pageId = await insertPage(t, id, cr.id, doc('Intro'));
    const { revision } = await mergeChangeRequest(t, id, cr.id);
    const base = `/v1/spaces/${id}/revisions/${revision}`;
    const pages = expectStatus(await get(`${base}/pages`), 200) as { pages: { path: string }[] };
    const path = pages.pages[0]?.path as string;
    for (const url of [
      base, // getRevisionById
      `${base}/pages`, // listPagesInRevisionById
      `${base}/page/${pageId}`, // getPageInRevisionById
      `${base}/page/${pageId}?format=markdown`,
      `${base}/path/${path}`, // getPageInRevisionByPath
      `${base}/page/${pageId}/document`, // getPageDocumentInRevisionById
    ]) {
      const res = await get(url);
      expectStatus(res, 200);
      assert.equal(res.headers['x-gitbook-cache-tag'], space(id), url);
      assert.equal(res.headers['x-gitbook-cache-control'], IMMUTABLE, url);
    }
  });

  test('errors and mutable content reads carry no cache headers', async () => {
    const { id } = await newSpace(t);
    for (const url of [
      `/v1/spaces/${id}/revisions/nope`, // 404
      `/v1/spaces/nope`, // 404
      `/v1/spaces/${id}/content`, // the current revision: changes with every merge
    ]) {
      const res = await get(url);
      assert.equal(res.headers['x-gitbook-cache-control'], undefined, url);
      assert.equal(res.headers['x-gitbook-cache-tag'], undefined, url);
    }
  });
});

describe('revalidation: configuration', () => {
  const load = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'silent', ...env });
  const problemsOf = (env: Record<string, string>) => {
    try {
      load(env);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.problems;
    }
    return [];
  };

  test('both or neither: one alone is a start-up error that names the other', () => {
    assert.equal(load({}).rendererRevalidation, undefined);
    const [urlOnly] = problemsOf({ RENDERER_REVALIDATE_URL: 'http://r:3000/~gitbook/revalidate' });
    assert.match(String(urlOnly), /RENDERER_SECRET/);
    const [secretOnly] = problemsOf({ RENDERER_SECRET: 's3cret' });
    assert.match(String(secretOnly), /RENDERER_REVALIDATE_URL/);
    assert.doesNotMatch(String(secretOnly), /s3cret/);
  });

  test('a URL, defaults, and refused values', () => {
    const config = load({
      RENDERER_REVALIDATE_URL: 'http://renderer:3000/~gitbook/revalidate',
      RENDERER_SECRET: 's3cret',
    });
    assert.deepEqual(config.rendererRevalidation, {
      url: 'http://renderer:3000/~gitbook/revalidate',
      secret: 's3cret',
      attempts: 6,
      firstRetryMs: 500,
    });
    assert.ok(Object.isFrozen(config.rendererRevalidation));
    const problems = problemsOf({
      RENDERER_REVALIDATE_URL: 'renderer:3000',
      RENDERER_SECRET: 's3cret',
      RENDERER_REVALIDATE_ATTEMPTS: '0',
      RENDERER_REVALIDATE_RETRY_MS: 'soon',
    });
    assert.deepEqual(problems.map((p) => p.split(' ')[0]).sort(), [
      'RENDERER_REVALIDATE_ATTEMPTS',
      'RENDERER_REVALIDATE_RETRY_MS',
      'RENDERER_REVALIDATE_URL',
    ]);
  });
});
