/**
 * GitBook conformance: uploads (docs/uploads.md). generateStorageUploadURL's answers judged
 * against GitBook 0.202's response schemas, every body sent valid under its request schema
 * unless it is a refusal on purpose.
 */
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';

let t: TestContext;
let c: Conformance;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
});
after(async () => t.close());

describe('GitBook conformance: storage', () => {
  test('an upload URL of each kind; refusals', async () => {
    const url = `/v1/orgs/${t.orgId}/storage/upload`;
    const files = [
      ['organization_file', { name: 'logo.png', type: 'image/png', size: 2048 }],
      ['customization_font', { name: 'Inter.woff2', type: 'font/woff2', size: 30_000 }],
      ['import_file', { name: 'notes.md', type: 'text/markdown', size: 100 }],
    ] as const;
    // 0.130 knows customization_font only: the other kinds are judged under 0.202.
    for (const [kind, file] of files) {
      await c.call(
        'generateStorageUploadURL',
        { method: 'POST', url, payload: { file, kind } },
        { status: 201, ...(kind === 'customization_font' ? {} : { versions: ['0.202'] }) },
      );
    }
    await c.call(
      'generateStorageUploadURL',
      {
        method: 'POST',
        url,
        payload: {
          file: { name: 'a.exe', type: 'application/x-msdownload', size: 10 },
          kind: 'customization_font',
        },
      },
      { status: 400 },
    );
    await c.call(
      'generateStorageUploadURL',
      {
        method: 'POST',
        url,
        payload: { file: { name: 'a.png', type: 'image/png' }, kind: 'organization_file' },
      },
      { status: 400, invalidBody: true },
    );
    c.assertConforms();
    assertCoverage(c, 'storage');
  });
});
