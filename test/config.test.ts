import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  test('defaults: 127.0.0.1:8080, SQLite at ./data/livery.db, durable commits', () => {
    const config = loadConfig({}, '/srv/livery');
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    assert.equal(config.baseUrl, 'http://127.0.0.1:8080');
    assert.deepEqual(config.database, {
      dialect: 'sqlite',
      filename: '/srv/livery/data/livery.db',
      synchronous: 'FULL',
    });
    assert.equal(config.logLevel, 'info');
    assert.equal(config.orgTitle, 'Default organization');
    assert.equal(config.bootstrapToken, undefined);
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.database));
  });

  const databases: [string, string][] = [
    ['sqlite:./data/livery.db', '/srv/livery/data/livery.db'],
    ['sqlite:data/x.db', '/srv/livery/data/x.db'],
    ['sqlite:/var/lib/livery/livery.db', '/var/lib/livery/livery.db'],
    ['sqlite:///var/lib/livery/livery.db', '/var/lib/livery/livery.db'],
    ['sqlite://./rel.db', '/srv/livery/rel.db'],
    ['sqlite::memory:', ':memory:'],
  ];
  for (const [url, filename] of databases) {
    test(`DATABASE_URL=${url}`, () => {
      assert.equal(loadConfig({ DATABASE_URL: url }, '/srv/livery').database.filename, filename);
    });
  }

  test('HOST, PORT, BASE_URL, LOG_LEVEL, LIVERY_ORG_TITLE, LIVERY_BOOTSTRAP_TOKEN', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '9000',
      LOG_LEVEL: 'warn',
      LIVERY_ORG_TITLE: 'Acme',
      LIVERY_BOOTSTRAP_TOKEN: 'gb_automation-knows-this-token',
    });
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 9000);
    assert.equal(config.baseUrl, 'http://127.0.0.1:9000', 'a wildcard host is not a URL host');
    assert.equal(config.logLevel, 'warn');
    assert.equal(config.orgTitle, 'Acme');
    assert.equal(config.bootstrapToken, 'gb_automation-knows-this-token');
    assert.equal(
      loadConfig({ BASE_URL: 'https://docs.example.com/' }).baseUrl,
      'https://docs.example.com',
    );
  });

  test('every bad key is reported in one error, without echoing a database URL', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://root:hunter2@db/livery',
        LOG_LEVEL: 'loud',
        BASE_URL: 'ftp://x',
        LIVERY_BOOTSTRAP_TOKEN: 'short',
        SQLITE_SYNCHRONOUS: 'OFF',
        LIVERY_ORG_TITLE: 'x',
        SHUTDOWN_TIMEOUT_MS: '-1',
      });
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof ConfigError);
    const keys = error.problems.map((p) => p.split(' ')[0]);
    assert.deepEqual(keys.sort(), [
      'BASE_URL',
      'DATABASE_URL',
      'LIVERY_BOOTSTRAP_TOKEN',
      'LIVERY_ORG_TITLE',
      'LOG_LEVEL',
      'PORT',
      'SHUTDOWN_TIMEOUT_MS',
      'SQLITE_SYNCHRONOUS',
    ]);
    assert.doesNotMatch(error.message, /hunter2/);
  });

  test('PostgreSQL URLs are refused with a clear message until that backend exists', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'postgres://u:secret@127.0.0.1/test' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /PostgreSQL is not supported yet/.test(e.message) &&
        !/secret/.test(e.message),
    );
  });
});
