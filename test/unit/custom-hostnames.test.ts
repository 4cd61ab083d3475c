import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { hostedPath, requestHost } from '../../src/modules/published/access/site-hostnames.js';
import {
  hostnameProblem,
  normalizeHostname,
  ownHostsOf,
  SITE_HOSTNAME_PATTERN,
} from '../../src/modules/sites/hostname.js';

/** The pure rules of custom hostnames (docs/sites.md, "Custom hostnames"), as tables. */
describe('custom hostnames: the rules', () => {
  test('the pattern (GitBook’s, any case): at least three labels, no port, scheme or IPv6', () => {
    const pattern = new RegExp(SITE_HOSTNAME_PATTERN);
    const table: [string, boolean][] = [
      ['docs.acme.com', true],
      ['Docs.Acme.COM', true],
      ['a1.b-2.example.test', true],
      ['x.y.co', true],
      ['acme.com', false],
      ['localhost', false],
      ['docs..acme.com', false],
      ['-docs.acme.com', false],
      ['docs-.acme.com', false],
      ['docs.acme.com.', false],
      ['docs.acme.com:443', false],
      ['https://docs.acme.com', false],
      ['docs.acme.com/path', false],
      ['[::1]', false],
      ['dócs.acme.com', false],
      [`${'a'.repeat(64)}.acme.com`, false],
      [`${'a'.repeat(63)}.acme.com`, true],
    ];
    for (const [hostname, valid] of table) {
      assert.equal(pattern.test(hostname), valid, hostname);
    }
  });

  test('what the pattern lets through and a site still may not take', () => {
    const own = ownHostsOf('http://livery.acme.com:8080', 'https://pages.acme.com/s/');
    assert.deepEqual(own, ['livery.acme.com', 'pages.acme.com']);
    const table: [string, RegExp | undefined][] = [
      ['docs.acme.com', undefined],
      ['10.0.0.10', /IP address/],
      ['docs.acme.99', /IP address/],
      ['livery.acme.com', /Livery's own address/],
      ['pages.acme.com', /Livery's own address/],
      [`${'abcdefgh.'.repeat(28)}com`, /at most 253/],
    ];
    for (const [hostname, problem] of table) {
      const found = hostnameProblem(normalizeHostname(hostname), own);
      if (problem === undefined) assert.equal(found, undefined, hostname);
      else assert.match(found ?? '', problem, hostname);
    }
  });

  test('the host of a request: Host, or the first X-Forwarded-Host when the proxy is trusted', () => {
    const table: [Record<string, string>, boolean, string | undefined][] = [
      [{ host: 'Docs.Acme.com' }, false, 'docs.acme.com'],
      [{ host: 'docs.acme.com:8443' }, false, 'docs.acme.com'],
      [{ host: 'docs.acme.com.' }, false, 'docs.acme.com'],
      [{ host: '[::1]:8080' }, false, undefined],
      [{}, false, undefined],
      [{ host: 'a.test', 'x-forwarded-host': 'docs.acme.com' }, false, 'a.test'],
      [{ host: 'a.test', 'x-forwarded-host': 'Docs.acme.com:443, b.test' }, true, 'docs.acme.com'],
      [{ host: 'a.test' }, true, 'a.test'],
    ];
    for (const [headers, trust, expected] of table) {
      assert.equal(requestHost(headers, trust), expected, JSON.stringify([headers, trust]));
    }
  });

  test('the route of a request at a hostname: the site’s, or Livery’s shared files', () => {
    const table: [string, string, string][] = [
      ['/', '/s/', '/s/site_1/'],
      ['/guides/install?x=1', '/s/', '/s/site_1/guides/install?x=1'],
      ['/@livery/theme/v.css', '/s/', '/s/site_1/@livery/theme/v.css'],
      ['/s/@livery/site.js', '/s/', '/s/@livery/site.js'],
      ['/docs/@livery/site.js', '/docs/', '/s/@livery/site.js'],
      ['/s/@livery/site.js', '/docs/', '/s/site_1/s/@livery/site.js'],
      ['/v1/orgs', '/s/', '/s/site_1/v1/orgs'],
    ];
    for (const [url, mount, expected] of table) {
      assert.equal(hostedPath(url, 'site_1', mount), expected, `${mount} ${url}`);
    }
  });

  test('settings: TRUST_PROXY and CUSTOM_HOSTNAME_SCHEME', () => {
    const base = loadConfig({}, '/srv/livery');
    assert.equal(base.trustProxy, false);
    assert.equal(base.customHostnameScheme, 'http', "PUBLIC_URL's scheme");
    const set = loadConfig(
      { PUBLIC_URL: 'https://pages.acme.com/s/', TRUST_PROXY: 'true' },
      '/srv/livery',
    );
    assert.equal(set.trustProxy, true);
    assert.equal(set.customHostnameScheme, 'https');
    const chosen = loadConfig({ CUSTOM_HOSTNAME_SCHEME: 'https' }, '/srv/livery');
    assert.equal(chosen.customHostnameScheme, 'https');
    assert.throws(
      () => loadConfig({ TRUST_PROXY: 'yes', CUSTOM_HOSTNAME_SCHEME: 'ftp' }, '/srv/livery'),
      (error: unknown) =>
        error instanceof ConfigError &&
        /TRUST_PROXY must be/.test(error.message) &&
        /CUSTOM_HOSTNAME_SCHEME must be https or http/.test(error.message),
    );
  });
});
