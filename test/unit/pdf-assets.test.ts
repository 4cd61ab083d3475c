import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isPngOrJpeg, nearestFace, storedHash } from '../../src/modules/pdf/assets.js';
import { gif, jpeg, png, svg } from '../helpers/upload-samples.js';

const BASE = 'http://livery.test/s/';
const HASH = 'a'.repeat(43);

describe('storedHash: only addresses of Livery’s own file route name a stored file', () => {
  const cases: [string, string | undefined][] = [
    [`${BASE}@livery/files/${HASH}/logo.png`, HASH],
    [`/s/@livery/files/${HASH}/logo.png`, HASH],
    [`${BASE}@livery/files/${HASH}/Brand%20(Bold).woff2`, HASH],
    [`${BASE}@livery/files/short/logo.png`, undefined],
    [`${BASE}@livery/files/${HASH}!/logo.png`, undefined],
    [`https://elsewhere.test/s/@livery/files/${HASH}/logo.png`, undefined],
    [`${BASE}@livery/uploads/${HASH}/logo.png`, undefined],
    ['https://example.test/logo.png', undefined],
    ['', undefined],
  ];
  for (const [url, hash] of cases)
    test(url || '(empty)', () => assert.equal(storedHash(url, BASE), hash));
});

test('isPngOrJpeg: PNG and JPEG by their first bytes, nothing else', () => {
  assert.equal(isPngOrJpeg(png()), true);
  assert.equal(isPngOrJpeg(jpeg), true);
  for (const other of [gif, svg, Buffer.alloc(0), Buffer.from('PNG')]) {
    assert.equal(isPngOrJpeg(other), false);
  }
});

test('nearestFace: the weight asked for, else the closest', () => {
  const font = {
    id: 'f',
    custom: true,
    fontFamily: 'Brand',
    fontFaces: [300, 400, 800].map((weight) => ({ weight, sources: [{ url: `u${weight}` }] })),
  };
  assert.equal(nearestFace(font, 400)?.weight, 400);
  assert.equal(nearestFace(font, 700)?.weight, 800);
  assert.equal(nearestFace(font, 100)?.weight, 300);
});
