/**
 * The official client of GitBook 0.202 asks for a space's PDF (getSpacePdf, operation
 * getSpacePDF: docs/pdf.md) against a listening Livery; the URL it gets is then read over HTTP
 * without any token, as a browser would, and the PDF's pages are read back with PDF.js.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { type Api0202, failure0202, recordingClient } from '../helpers/gitbook-0202.js';
import { readPdf } from '../helpers/pdf-text.js';

let t: TestContext;
let api: Api0202;
let endpoint: string;

before(async () => {
  t = await createTestApp();
  ({ api, endpoint } = await recordingClient(t));
});
after(async () => t.close());

describe('the official 0.202 client against Livery: getSpacePDF', () => {
  test('a temporary URL to the PDF of the space, and of one page', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Manual' });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: 'Pages' });
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Install',
          slug: 'install',
          document: { markdown: 'Run it.' },
        },
        { operation: 'insert_page', title: 'Use', slug: 'use', document: { markdown: 'Use it.' } },
      ],
    });
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const { data: tree } = await api.spaces.listPages(space.id);
    const use = tree.pages.find((page) => page.title === 'Use');
    assert.ok(use);

    const whole = await api.spaces.getSpacePdf(space.id);
    assert.equal(whole.status, 200);
    const url = new URL(String(whole.data.url));
    // Read where the server listens, with no credentials: the URL is the capability.
    const response = await fetch(new URL(url.pathname, endpoint));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));
    assert.deepEqual(pdf.outline, ['Install', 'Use']);
    assert.ok(pdf.pages.some((text) => text.startsWith('Install\nRun it.')));

    const one = await api.spaces.getSpacePdf(space.id, { page: use.id, only: true });
    const single = await fetch(new URL(new URL(String(one.data.url)).pathname, endpoint));
    assert.deepEqual((await readPdf(new Uint8Array(await single.arrayBuffer()))).outline, ['Use']);

    const missing = await failure0202(api.spaces.getSpacePdf(space.id, { page: 'nope' }));
    assert.equal(missing.code, 404);
    assert.match(missing.message, /querystring\.page/);
  });
});
