import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

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
      lockWaitMs: 5000,
    });
    assert.equal(config.logLevel, 'info');
    assert.equal(config.orgTitle, 'Default organization');
    assert.equal(config.bootstrapToken, undefined);
    assert.equal(config.rateLimitPerMinute, 1200);
    assert.equal(config.requestTimeoutMs, 30000);
    assert.equal(config.pressureMaxEventLoopDelayMs, 1000);
    assert.equal(config.pressureMaxHeapUsedMb, 0);
    assert.equal(config.pressureMaxRssMb, 0);
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
      const { database } = loadConfig({ DATABASE_URL: url }, '/srv/livery');
      assert.equal(database.dialect === 'sqlite' && database.filename, filename);
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
        SQLITE_LOCK_WAIT_MS: 'forever',
        LIVERY_ORG_TITLE: 'x',
        SHUTDOWN_TIMEOUT_MS: '-1',
        RATE_LIMIT_PER_MINUTE: 'lots',
        REQUEST_TIMEOUT_MS: '-5',
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '1.5',
        PRESSURE_MAX_HEAP_USED_MB: '2000000',
        PRESSURE_MAX_RSS_MB: 'x',
        PUBLIC_URL: 'ftp://docs.example.com/',
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
      'PRESSURE_MAX_EVENT_LOOP_DELAY_MS',
      'PRESSURE_MAX_HEAP_USED_MB',
      'PRESSURE_MAX_RSS_MB',
      'PUBLIC_URL',
      'RATE_LIMIT_PER_MINUTE',
      'REQUEST_TIMEOUT_MS',
      'SHUTDOWN_TIMEOUT_MS',
      'SQLITE_LOCK_WAIT_MS',
      'SQLITE_SYNCHRONOUS',
    ]);
    assert.doesNotMatch(error.message, /hunter2/);
  });

  test('limits: rate limit, request timeout and load-shedding thresholds; 0 disables', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_MINUTE: '60',
      REQUEST_TIMEOUT_MS: '5000',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '250',
      PRESSURE_MAX_HEAP_USED_MB: '512',
      PRESSURE_MAX_RSS_MB: '1024',
    });
    assert.equal(config.rateLimitPerMinute, 60);
    assert.equal(config.requestTimeoutMs, 5000);
    assert.equal(config.pressureMaxEventLoopDelayMs, 250);
    assert.equal(config.pressureMaxHeapUsedMb, 512);
    assert.equal(config.pressureMaxRssMb, 1024);
    const off = loadConfig({
      RATE_LIMIT_PER_MINUTE: '0',
      REQUEST_TIMEOUT_MS: '0',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    assert.equal(off.rateLimitPerMinute, 0);
    assert.equal(off.requestTimeoutMs, 0);
    assert.equal(off.pressureMaxEventLoopDelayMs, 0);
  });

  test('PostgreSQL: connection string, schema, pool size, and a display without secrets', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://u:secret@db.internal:6543/docs?sslmode=disable&schema=livery',
      DATABASE_POOL_SIZE: '25',
    });
    assert.deepEqual(config.database, {
      dialect: 'postgres',
      connectionString: 'postgresql://u:secret@db.internal:6543/docs?sslmode=disable',
      display: 'db.internal:6543/docs',
      schema: 'livery',
      poolSize: 25,
    });
    const plain = loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/test' }).database;
    assert.ok(plain.dialect === 'postgres' && plain.schema === 'public' && plain.poolSize === 10);
  });

  test('bad PostgreSQL settings are refused without echoing the password', () => {
    assert.throws(
      () =>
        loadConfig({
          DATABASE_URL: 'postgres://u:secret@127.0.0.1/test?schema=Bad-Name',
          DATABASE_POOL_SIZE: '0',
        }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.problems.length === 2 &&
        /schema must be a lowercase SQL identifier/.test(e.message) &&
        /DATABASE_POOL_SIZE must be an integer between 1 and 1000/.test(e.message) &&
        !/secret/.test(e.message),
    );
  });
});
