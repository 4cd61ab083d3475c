import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileNameOf } from '../../src/modules/pdf/service.js';
import { openTicket, type PdfTicket, signTicket } from '../../src/modules/pdf/token.js';
import { ServerKey } from '../../src/server-key.js';

const key = new ServerKey({ value: 'k'.repeat(40), file: '/nonexistent' });
const other = new ServerKey({ value: 'o'.repeat(40), file: '/nonexistent' });
const NOW = 1_800_000_000;

describe('PDF tickets', () => {
  const tickets: PdfTicket[] = [
    { spaceId: 's1', revisionId: 'r1', expires: NOW + 3600 },
    { spaceId: 's1', revisionId: 'r1', page: 'p', only: true, expires: NOW + 1 },
    {
      spaceId: 's1',
      revisionId: 'r1',
      page: 'p',
      siteId: 'site',
      siteSpaceId: 'v',
      expires: NOW + 60,
    },
  ];
  for (const ticket of tickets) {
    test(`round trip ${JSON.stringify(ticket)}`, () => {
      const token = signTicket(key, ticket);
      assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(openTicket(key, token, NOW), ticket);
    });
  }

  test('expired, altered, foreign and malformed tokens', () => {
    const token = signTicket(key, { spaceId: 's', revisionId: 'r', expires: NOW });
    assert.equal(openTicket(key, token, NOW), 'expired');
    assert.equal(openTicket(other, token, NOW - 10), 'invalid');
    const [payload = '', signature = ''] = token.split('.');
    const forged = Buffer.from(JSON.stringify(['s2', 'r', NOW + 99, '', 0, '', ''])).toString(
      'base64url',
    );
    assert.equal(openTicket(key, `${forged}.${signature}`, NOW - 10), 'invalid');
    for (const bad of ['', '.', 'a.b.c', `${payload}`, `${payload}.`]) {
      assert.equal(openTicket(key, bad, NOW - 10), 'invalid', bad);
    }
    const notArray = Buffer.from('{"spaceId":"s"}').toString('base64url');
    assert.equal(openTicket(key, `${notArray}.${key.sign('pdf-url', notArray)}`, NOW), 'invalid');
  });

  test('file names', () => {
    assert.equal(fileNameOf('Field guide'), 'Field-guide.pdf');
    assert.equal(fileNameOf('Über uns: "quoted"'), 'Uber-uns-quoted.pdf');
    assert.equal(fileNameOf('入门'), 'export.pdf');
  });
});
