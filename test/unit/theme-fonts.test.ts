import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { themeCss } from '../../src/modules/theme/css.js';
import {
  cssString,
  definitionFaces,
  fontFormat,
  fontOrigins,
} from '../../src/modules/theme/font-definitions.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import type { FontDefinition } from '../../src/settings/settings-parts.js';
import type { Settings } from '../../src/settings/settings-schema.js';

/**
 * Custom font definitions and the heading font in the theme CSS (GitBook 0.202): `@font-face`
 * rules from a definition's files, escaped so that no family name or URL can leave its CSS
 * string, and the origins the page's CSP allows as font sources.
 */
const settings = (change: (s: Settings) => void = () => {}): Settings => {
  const s = structuredClone(DEFAULT_SETTINGS) as Settings;
  change(s);
  return s;
};
const definition = (fontFamily: string, urls: string[]): FontDefinition => ({
  id: 'font-1',
  custom: true,
  fontFamily,
  fontFaces: [{ weight: 400, sources: urls.map((url) => ({ url })) }],
});

describe('cssString', () => {
  const rows: [string, string][] = [
    ['Inter', '"Inter"'],
    ['ABC Favorit', '"ABC Favorit"'],
    ['https://f.test/a.woff2?v=1#x', '"https://f.test/a.woff2?v=1#x"'],
    ['My "Font"', '"My \\22 Font\\22 "'],
    ['back\\slash', '"back\\5c slash"'],
    ['</style><script>', '"\\3c /style\\3e \\3c script\\3e "'],
    ['line\nbreak', '"line\\a break"'],
    ['{ } ;', '"\\7b  \\7d  ;"'],
    ['Noto 😀', '"Noto \\1f600 "'],
  ];
  for (const [text, css] of rows)
    test(JSON.stringify(text), () => assert.equal(cssString(text), css));

  test('no text leaves its string: no raw quote, backslash, newline or "<" inside', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const inner = cssString(text).slice(1, -1);
        assert.doesNotMatch(inner, /["\n\r\f<>{}]/);
        // Every backslash starts a hexadecimal escape ended by a space.
        assert.match(inner, /^(?:[^\\]|\\[0-9a-f]{1,6} )*$/);
      }),
    );
  });
});

describe('fontFormat', () => {
  const rows: [string, string | undefined, string | undefined][] = [
    ['https://f.test/a.woff2', undefined, 'woff2'],
    ['https://f.test/a.WOFF', undefined, 'woff'],
    ['https://f.test/a.ttf?v=2', undefined, 'truetype'],
    ['https://f.test/a.otf#x', undefined, 'opentype'],
    ['https://f.test/font', undefined, undefined],
    ['https://f.test/a.eot', undefined, undefined],
    ['https://f.test/font', 'woff2', 'woff2'],
    ['https://f.test/a.ttf', 'woff', 'woff'],
  ];
  for (const [url, format, expected] of rows) {
    test(`${url} ${format ?? ''}`, () => assert.equal(fontFormat(url, format), expected));
  }
});

describe('font definitions in the theme CSS', () => {
  test('one @font-face per weight, sources in order with their formats', () => {
    const font: FontDefinition = {
      id: 'brand',
      custom: true,
      fontFamily: 'Brand Sans',
      fontFaces: [
        {
          weight: 400,
          sources: [
            { url: 'https://fonts.test/brand-400.woff2' },
            { url: 'https://fonts.test/brand-400.bin', format: 'woff' },
          ],
        },
        { weight: 700, sources: [{ url: 'https://fonts.test/brand-700' }] },
      ],
    };
    assert.deepEqual(definitionFaces(font), [
      '@font-face { font-family: "Brand Sans"; font-style: normal; font-weight: 400; font-display: swap; src: url("https://fonts.test/brand-400.woff2") format("woff2"), url("https://fonts.test/brand-400.bin") format("woff"); }',
      '@font-face { font-family: "Brand Sans"; font-style: normal; font-weight: 700; font-display: swap; src: url("https://fonts.test/brand-700"); }',
    ]);
  });

  test('body, heading and code fonts: a definition, a default heading font with its files', () => {
    const css = themeCss(
      settings((s) => {
        s.styling.font = definition('Brand "Sans"', ['https://fonts.test/b.woff2']);
        s.styling.headingFont = 'RobotoSlab';
        s.styling.monospaceFont = 'FiraCode';
      }),
      '/s/@livery/fonts/',
    );
    assert.match(css, /--font-sans: "Brand \\22 Sans\\22 ", system-ui/);
    assert.match(css, /--font-heading: "Roboto Slab", system-ui/);
    assert.match(css, /--font-mono: "Fira Code", ui-monospace/);
    assert.match(
      css,
      /@font-face \{ font-family: "Brand \\22 Sans\\22 "; [^}]*url\("https:\/\/fonts\.test\/b\.woff2"\)/,
    );
    assert.match(css, /@font-face \{ font-family: "Roboto Slab"; [^}]*roboto-slab-latin-700/);
    assert.doesNotMatch(css, /inter-latin/, 'the default body font is not the one chosen');
  });

  test('no heading font: headings use the body font, whose rules appear once', () => {
    const css = themeCss(settings(), '/s/@livery/fonts/');
    assert.match(css, /--font-heading: "Inter", system-ui/);
    assert.equal(css.match(/inter-latin-400-normal/g)?.length, 1);
  });

  test('a hostile family name or URL stays inside its string', () => {
    const css = themeCss(
      settings((s) => {
        s.styling.headingFont = definition('x"; } body { color: red; } </style><script>', [
          'https://fonts.test/a.woff2?"),url(https://evil.test/',
        ]);
      }),
    );
    assert.doesNotMatch(css, /<\/style|<script|body \{ color: red/);
    assert.match(
      css,
      /url\("https:\/\/fonts\.test\/a\.woff2\?\\22 \),url\(https:\/\/evil\.test\/"\)/,
    );
  });

  test('fontOrigins: each custom font file’s origin once; default fonts add none', () => {
    assert.deepEqual(fontOrigins(settings()), []);
    const origins = fontOrigins(
      settings((s) => {
        s.styling.font = definition('A', ['https://a.test/1.woff2', 'https://a.test/2.woff2']);
        s.styling.headingFont = definition('B', ['http://b.test:8080/b.woff']);
        s.styling.monospaceFont = definition('C', ['https://A.TEST/c.woff2']);
      }),
    );
    assert.deepEqual(origins, ['https://a.test', 'http://b.test:8080']);
  });
});
