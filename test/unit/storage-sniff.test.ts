import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { contentTypeOf } from '../../src/modules/files/file-types.js';
import { canonicalType, contentProblem, servedName } from '../../src/modules/storage/kinds.js';
import {
  compressedFormat,
  inflatedFontSize,
  sniffBinary,
  textKind,
} from '../../src/modules/storage/sniff.js';
import {
  avif,
  gif,
  ico,
  jpeg,
  otf,
  png,
  pngHeader,
  svg,
  svgWithScript,
  ttf,
  webp,
  woff,
  woff2,
} from '../helpers/upload-samples.js';

/** Uploads' content checks (docs/uploads.md, "What is accepted"), table by table. */
describe('sniffBinary: formats by their first bytes', () => {
  const cases: [string, Buffer, string | undefined][] = [
    ['PNG', png(), 'image/png'],
    ['JPEG', jpeg, 'image/jpeg'],
    ['GIF', gif, 'image/gif'],
    ['WebP', webp, 'image/webp'],
    ['AVIF', avif, 'image/avif'],
    ['ICO', ico, 'image/x-icon'],
    ['WOFF2', woff2, 'font/woff2'],
    ['WOFF', woff(), 'font/woff'],
    ['TrueType', ttf, 'font/ttf'],
    ['OpenType', otf, 'font/otf'],
    ['an SVG (text: not binary)', svg, undefined],
    ['empty', Buffer.alloc(0), undefined],
    ['ICO with no image', Buffer.from([0, 0, 1, 0, 0, 0]), undefined],
    ['a cursor (not an icon)', Buffer.from([0, 0, 2, 0, 1, 0]), undefined],
    ['TrueType magic without a table directory', Buffer.from([0, 1, 0, 0, 0, 9]), undefined],
    [
      'an ISO-BMFF video (mp4 brand)',
      Buffer.from('\x00\x00\x00\x18ftypisom\x00\x00\x00\x00isommp41', 'latin1'),
      undefined,
    ],
    ['a PNG cut in its signature', png().subarray(0, 5), undefined],
    ['RIFF that is WAVE', Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'), undefined],
  ];
  for (const [what, bytes, expected] of cases) {
    test(what, () => assert.equal(sniffBinary(bytes), expected));
  }
});

describe('compressedFormat', () => {
  const cases: [string, Buffer, string | undefined][] = [
    ['gzip', gzipSync(Buffer.from('x')), 'gzip'],
    ['zip', Buffer.from('PK\x03\x04rest', 'latin1'), 'zip'],
    ['empty zip', Buffer.from('PK\x05\x06', 'latin1'), 'zip'],
    ['bzip2', Buffer.from('BZh91AY', 'latin1'), 'bzip2'],
    ['xz', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 1]), 'xz'],
    ['zstd', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1]), 'zstd'],
    ['7z', Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), '7z'],
    ['rar', Buffer.from('Rar!\x1a\x07\x00', 'latin1'), 'rar'],
    ['PNG', png(), undefined],
    ['WOFF2 (compressed inside, bounded by its header)', woff2, undefined],
  ];
  for (const [what, bytes, expected] of cases) {
    test(what, () => assert.equal(compressedFormat(bytes), expected));
  }
});

describe('textKind', () => {
  const cases: [string, string | Buffer, string][] = [
    ['an SVG', svg, 'svg'],
    [
      'an SVG after a declaration, a comment and a DOCTYPE',
      '\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg"/>',
      'svg',
    ],
    ['an SVG with a script (checked by serving, not here)', svgWithScript, 'svg'],
    [
      'entities in an internal subset',
      '<!DOCTYPE svg [<!ENTITY a "x">]><svg>&a;</svg>',
      'svg-entities',
    ],
    ['an internal subset without entities', '<!DOCTYPE svg [ ]><svg/>', 'svg-entities'],
    ['HTML', '<!doctype html><html><svg></svg></html>', 'text'],
    ['Markdown', '# Title\n\nText with <svg> later\n', 'text'],
    ['text with a NUL', 'a\u0000b', 'not-text'],
    ['text with an escape character', 'a\u001bb', 'not-text'],
    ['ill-formed UTF-8', Buffer.from([0x61, 0xc3, 0x28]), 'not-text'],
    ['a PNG', png(), 'not-text'],
  ];
  for (const [what, input, expected] of cases) {
    test(what, () => assert.equal(textKind(Buffer.from(input)).kind, expected));
  }
});

describe('contentProblem: a declared type against the bytes', () => {
  const cases: [string, string, Buffer, RegExp | undefined][] = [
    ['a PNG as PNG', 'image/png', png(), undefined],
    ['a JPEG as PNG', 'image/png', jpeg, /not a PNG image .*: it is a JPEG image/],
    ['an SVG as SVG', 'image/svg+xml', svg, undefined],
    ['a PNG as SVG', 'image/svg+xml', png(), /not an SVG image.*PNG/],
    [
      'HTML as SVG',
      'image/svg+xml',
      Buffer.from('<html><script>x</script></html>'),
      /not an <svg> document/,
    ],
    ['gzipped SVG', 'image/svg+xml', gzipSync(svg), /gzip-compressed/],
    ['zip as Markdown', 'text/markdown', Buffer.from('PK\x03\x04rest', 'latin1'), /zip-compressed/],
    [
      'a billion laughs',
      'image/svg+xml',
      Buffer.from('<!DOCTYPE svg [<!ENTITY a "b">]><svg/>'),
      /entities/,
    ],
    ['WOFF2 as WOFF2', 'font/woff2', woff2, undefined],
    ['WOFF2 as WOFF', 'font/woff', woff2, /not a WOFF font .*: it is a WOFF2 font/],
    ['TrueType as OTF', 'font/otf', ttf, undefined],
    ['OpenType as TTF', 'font/ttf', otf, undefined],
    ['a WOFF inflating to 1 GiB', 'font/woff', woff(1024 ** 3), /inflates to 1073741824 bytes/],
    ['a WOFF inflating to 1 MiB', 'font/woff', woff(1024 ** 2), undefined],
    ['a PNG as a font', 'font/woff2', png(), /not a WOFF2 font.*PNG/],
    ['a 100000×100000 PNG', 'image/png', pngHeader(100_000, 100_000), /100000×100000 pixels/],
    ['a 16384×1 PNG', 'image/png', pngHeader(16_384, 1), undefined],
    ['a 10000×10000 PNG (100 Mpx)', 'image/png', pngHeader(10_000, 10_000), /pixels in all/],
    ['Markdown as Markdown', 'text/markdown', Buffer.from('# Hi\n'), undefined],
    ['a PNG as text', 'text/plain', png(), /not UTF-8 text.*PNG/],
    ['JSON as JSON', 'application/json', Buffer.from('{"a":1}'), undefined],
    ['not JSON as JSON', 'application/json', Buffer.from('{a:1}'), /not well-formed JSON/],
    [
      'random bytes as PNG',
      'image/png',
      Buffer.from([1, 2, 3, 4]),
      /not a format Livery recognises/,
    ],
  ];
  for (const [what, type, bytes, expected] of cases) {
    test(what, () => {
      const problem = contentProblem(type, bytes);
      if (expected === undefined) assert.equal(problem, undefined);
      else assert.match(problem ?? '', expected);
    });
  }
});

describe('inflatedFontSize, canonicalType, servedName', () => {
  test('inflatedFontSize reads WOFF and WOFF2 headers only', () => {
    assert.equal(inflatedFontSize(woff(12345)), 12345);
    assert.ok((inflatedFontSize(woff2) ?? 0) > woff2.length);
    assert.equal(inflatedFontSize(ttf), undefined);
    assert.equal(inflatedFontSize(woff().subarray(0, 20)), undefined);
  });

  const types: [string, string][] = [
    ['image/PNG', 'image/png'],
    ['image/jpg', 'image/jpeg'],
    ['image/svg+xml; charset=utf-8', 'image/svg+xml'],
    ['image/vnd.microsoft.icon', 'image/x-icon'],
    ['application/font-woff', 'font/woff'],
    ['application/x-font-ttf', 'font/ttf'],
    ['text/x-markdown', 'text/markdown'],
    ['application/x-yaml', 'application/yaml'],
    ['', ''],
  ];
  for (const [given, expected] of types) {
    test(`canonicalType(${JSON.stringify(given)})`, () =>
      assert.equal(canonicalType(given), expected));
  }

  const names: [string, string, string][] = [
    ['logo.png', 'image/png', 'logo.png'],
    ['logo.PNG', 'image/png', 'logo.PNG'],
    ['photo.jpeg', 'image/jpeg', 'photo.jpeg'],
    ['logo', 'image/png', 'logo.png'],
    ['logo.png', 'image/svg+xml', 'logo.png.svg'],
    ['Inter', 'font/woff2', 'Inter.woff2'],
    ['Inter.otf', 'font/ttf', 'Inter.otf'],
    ['notes.markdown', 'text/markdown', 'notes.markdown.md'],
  ];
  for (const [name, type, expected] of names) {
    test(`servedName(${name}, ${type})`, () => {
      const served = servedName(name, type, contentTypeOf);
      assert.equal(served, expected);
      // What the file route serves it as (its type from the name) is the checked type.
      const back = contentTypeOf(served);
      assert.ok(back === type || (type.startsWith('font/') && back.startsWith('font/')), back);
    });
  }
});
