import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../src/errors.js';
import {
  applyChanges,
  customFontIds,
  formatOf,
  refuseRepeatedWeights,
  requireRegular,
  type StoredFace,
  unquotedCssSafe,
} from '../../src/modules/custom-fonts/faces.js';

/** The pure rules of custom fonts (docs/customization.md, "Custom fonts"). */
const face = (weight: number, key = `k${weight}`): StoredFace => ({
  weight,
  storageKey: key,
  url: `http://livery.test/s/@livery/files/h/${key}.woff2`,
  format: 'woff2',
});

describe('faces', () => {
  test('an update replaces, adds and removes by weight, in weight order', () => {
    const table: [number[], (StoredFace | { weight: number; storageKey: null })[], string[]][] = [
      [[400], [face(700)], ['k400', 'k700']],
      [[400, 700], [face(700, 'bold2')], ['k400', 'bold2']],
      [[400, 700], [{ weight: 700, storageKey: null }], ['k400']],
      [[400], [{ weight: 300, storageKey: null }], ['k400']],
      [[700, 400], [face(100)], ['k100', 'k400', 'k700']],
      [[400], [], ['k400']],
    ];
    for (const [current, changes, keys] of table) {
      const after = applyChanges(
        current.map((w) => face(w)),
        changes,
      );
      assert.deepEqual(
        after.map((f) => f.storageKey),
        keys,
        `${current} + ${JSON.stringify(changes)}`,
      );
    }
  });

  test('weight 400 is required (412), a weight given twice is a 400 naming it', () => {
    assert.doesNotThrow(() => requireRegular([100, 400]));
    for (const weights of [[], [700], [300, 500]]) {
      assert.throws(
        () => requireRegular(weights),
        (e: unknown) =>
          e instanceof AppError && e.statusCode === 412 && /body\.fontFaces/.test(e.message),
      );
    }
    assert.doesNotThrow(() => refuseRepeatedWeights([{ weight: 400, storageKey: 'a' }]));
    assert.throws(
      () =>
        refuseRepeatedWeights([
          { weight: 400, storageKey: 'a' },
          { weight: 700, storageKey: null },
          { weight: 400, storageKey: 'b' },
        ]),
      (e: unknown) =>
        e instanceof AppError &&
        e.statusCode === 400 &&
        e.message.startsWith('body.fontFaces[2].weight'),
    );
  });

  test('formats: GitBook names woff2 and woff only', () => {
    const table: [string, string | undefined][] = [
      ['font/woff2', 'woff2'],
      ['font/woff', 'woff'],
      ['FONT/WOFF2; charset=binary', 'woff2'],
      ['font/ttf', undefined],
      ['font/otf', undefined],
      ['constructor', undefined],
      ['', undefined],
    ];
    for (const [type, format] of table) assert.equal(formatOf(type), format, type);
  });
});

test('source URLs hold nothing an unquoted CSS url() cannot', () => {
  const table: [string, string][] = [
    ['http://h/s/@livery/files/x/brand.woff2', 'http://h/s/@livery/files/x/brand.woff2'],
    ['http://h/f/x/Brand%20(Bold).woff2', 'http://h/f/x/Brand%20%28Bold%29.woff2'],
    ["http://h/f/x/it's!*.ttf", 'http://h/f/x/it%27s%21%2A.ttf'],
  ];
  for (const [url, safe] of table) assert.equal(unquotedCssSafe(url), safe, url);
});

describe('which custom fonts a customization uses', () => {
  const def = (id: string, custom = true) => ({ id, custom, fontFamily: 'F', fontFaces: [] });
  test('the three font fields, custom definitions only', () => {
    const table: [unknown, string[]][] = [
      [{ styling: { font: def('font_a') } }, ['font_a']],
      [
        { styling: { font: 'Inter', monospaceFont: def('font_b'), headingFont: def('font_c') } },
        ['font_b', 'font_c'],
      ],
      [{ styling: { font: def('font_a', false) } }, []],
      [{ styling: { icons: def('font_a') } }, []],
      [{ styling: null }, []],
      [{ title: 'font_a' }, []],
      [null, []],
    ];
    for (const [settings, ids] of table) {
      assert.deepEqual(customFontIds(JSON.stringify(settings)), ids, JSON.stringify(settings));
    }
    assert.deepEqual(customFontIds(null), []);
    assert.deepEqual(customFontIds('{not json'), []);
  });
});
