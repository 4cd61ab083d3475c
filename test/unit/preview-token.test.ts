import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  previewToken,
  previewTokenOpens,
} from '../../src/modules/published/access/preview-token.js';
import { ServerKey } from '../../src/server-key.js';

const key = new ServerKey({
  value: 'a-unit-test-key-of-at-least-32-characters',
  file: '/nonexistent',
});
const other = new ServerKey({
  value: 'another-key-of-at-least-32-characters!!',
  file: '/nonexistent',
});
const NOW = 1_800_000_000;
const good = previewToken(key, 'site1', NOW + 3600);

describe('publishing preview tokens: which site, until when', () => {
  const rows: [string, string, string, number, boolean][] = [
    ['its site, before the expiry', good, 'site1', NOW, true],
    ['one second before the expiry', good, 'site1', NOW + 3599, true],
    ['at the expiry', good, 'site1', NOW + 3600, false],
    ['another site', good, 'site2', NOW, false],
    ['the expiry moved later', `${NOW + 7200}.${good.split('.')[1]}`, 'site1', NOW, false],
    ['signed with another key', previewToken(other, 'site1', NOW + 3600), 'site1', NOW, false],
    ['no signature', `${NOW + 3600}`, 'site1', NOW, false],
    ['not a token', 'nonsense', 'site1', NOW, false],
    ['an expiry that is not digits', `1e10.${good.split('.')[1]}`, 'site1', NOW, false],
  ];
  for (const [what, token, site, now, opens] of rows) {
    test(what, () => assert.equal(previewTokenOpens(key, site, token, now), opens));
  }
});
