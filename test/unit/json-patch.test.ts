import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { applyPatch, diff, type JsonPatch } from '../../src/settings/json-patch.js';
import type { JsonValue } from '../../src/settings/merge.js';

/** An object with these members in this order; `__proto__` stays an own, plain member. */
const object = (...entries: [string, JsonValue][]): JsonValue => Object.fromEntries(entries);
const member = (value: unknown) => ({
  value,
  enumerable: true,
  writable: true,
  configurable: true,
});
const isObject = (value: JsonValue): value is Record<string, JsonValue> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

describe('diff: the operations between two documents', () => {
  const rows: { rule: string; from: JsonValue; to: JsonValue; patch: JsonPatch }[] = [
    {
      rule: 'equal documents give no operations',
      from: { a: { b: [1] } },
      to: { a: { b: [1] } },
      patch: [],
    },
    {
      rule: 'a new member is added',
      from: {},
      to: { a: 1 },
      patch: [{ op: 'add', path: '/a', value: 1 }],
    },
    {
      rule: 'a missing member is removed',
      from: { a: 1 },
      to: {},
      patch: [{ op: 'remove', path: '/a' }],
    },
    {
      rule: 'a changed member is replaced',
      from: { a: 1 },
      to: { a: 'x' },
      patch: [{ op: 'replace', path: '/a', value: 'x' }],
    },
    {
      rule: 'nested objects are compared member by member, in key order',
      from: { z: 1, s: { b: true, a: null, c: 1 } },
      to: { s: { c: 1, d: {}, a: 0 }, z: 1 },
      patch: [
        { op: 'replace', path: '/s/a', value: 0 },
        { op: 'remove', path: '/s/b' },
        { op: 'add', path: '/s/d', value: {} },
      ],
    },
    {
      rule: 'an array is a leaf, replaced whole',
      from: { list: [1, { a: 1 }, 3] },
      to: { list: [1, { a: 2 }, 3] },
      patch: [{ op: 'replace', path: '/list', value: [1, { a: 2 }, 3] }],
    },
    {
      rule: 'an object becoming an array (or back) is replaced',
      from: { a: { b: 1 }, c: [] },
      to: { a: [], c: {} },
      patch: [
        { op: 'replace', path: '/a', value: [] },
        { op: 'replace', path: '/c', value: {} },
      ],
    },
    {
      rule: 'keys with / and ~ are escaped per RFC 6901',
      from: { 'a/b': { '~': 1 }, '~1': 1 },
      to: { 'a/b': { '~': 2 }, '~01': 3 },
      patch: [
        { op: 'replace', path: '/a~1b/~0', value: 2 },
        { op: 'add', path: '/~001', value: 3 },
        { op: 'remove', path: '/~01' },
      ],
    },
    {
      rule: 'the empty key is a member like any other',
      from: { '': { '': 1 } },
      to: { '': { '': 2 } },
      patch: [{ op: 'replace', path: '//', value: 2 }],
    },
    {
      rule: '__proto__ and constructor are plain member names',
      from: object(['__proto__', object(['x', 1])], ['constructor', 1]),
      to: object(['__proto__', object(['x', 2], ['polluted', true])]),
      patch: [
        { op: 'add', path: '/__proto__/polluted', value: true },
        { op: 'replace', path: '/__proto__/x', value: 2 },
        { op: 'remove', path: '/constructor' },
      ],
    },
    {
      rule: 'different roots that are not both objects: the root is replaced',
      from: { a: 1 },
      to: [1],
      patch: [{ op: 'replace', path: '', value: [1] }],
    },
    { rule: 'equal scalars give no operations', from: 'x', to: 'x', patch: [] },
    {
      rule: 'a scalar root is replaced',
      from: 1,
      to: null,
      patch: [{ op: 'replace', path: '', value: null }],
    },
  ];
  for (const row of rows) {
    test(row.rule, () => {
      const patch = diff(row.from, row.to);
      assert.deepEqual(patch, row.patch);
      assert.deepEqual(applyPatch(row.from, patch), row.to);
    });
  }

  test('a patch does not depend on the order members were stored in', () => {
    assert.deepEqual(diff({ b: 1, a: 1 }, { c: 1 }), diff({ a: 1, b: 1 }, { c: 1 }));
  });
});

describe('applyPatch', () => {
  test('__proto__ and constructor members never touch a prototype', () => {
    const result = applyPatch({}, [
      { op: 'add', path: '/__proto__', value: { polluted: true } },
      { op: 'add', path: '/__proto__/more', value: 1 },
      { op: 'add', path: '/constructor', value: { prototype: 1 } },
    ]) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result), ['__proto__', 'constructor']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(
      JSON.stringify(result),
      '{"__proto__":{"polluted":true,"more":1},"constructor":{"prototype":1}}',
    );
    const removed = applyPatch(result as JsonValue, [{ op: 'remove', path: '/__proto__' }]);
    assert.deepEqual(Object.keys(removed as object), ['constructor']);
  });

  test('add replaces an existing member; replace of the root replaces everything', () => {
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: 'add', path: '/a', value: 2 }]), { a: 2 });
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: 'replace', path: '', value: 'x' }]), 'x');
    assert.deepEqual(applyPatch({ a: 1 }, []), { a: 1 });
  });

  const refusals: { rule: string; document: JsonValue; patch: JsonPatch; message: RegExp }[] = [
    {
      rule: 'add under a missing parent',
      document: {},
      patch: [{ op: 'add', path: '/a/b', value: 1 }],
      message: /path \/a\/b does not exist/,
    },
    {
      rule: 'remove of a missing member',
      document: { a: 1 },
      patch: [{ op: 'remove', path: '/b' }],
      message: /path \/b does not exist/,
    },
    {
      rule: 'replace of a missing member',
      document: { a: {} },
      patch: [{ op: 'replace', path: '/a/b', value: 1 }],
      message: /path \/a\/b does not exist/,
    },
    {
      rule: 'a path into an array (arrays are leaves)',
      document: { a: [1] },
      patch: [{ op: 'replace', path: '/a/0', value: 2 }],
      message: /no object parent/,
    },
    {
      rule: 'a path through a scalar',
      document: { a: 1 },
      patch: [{ op: 'add', path: '/a/b/c', value: 2 }],
      message: /does not exist/,
    },
    {
      rule: 'a path without a leading slash',
      document: { a: 1 },
      patch: [{ op: 'replace', path: 'a', value: 2 }],
      message: /invalid path a/,
    },
    {
      rule: 'a ~ that is not ~0 or ~1 (RFC 6901 §3)',
      document: { '~2': 1 },
      patch: [{ op: 'replace', path: '/~2', value: 2 }],
      message: /invalid path/,
    },
    {
      rule: 'a ~ at the end of a token',
      document: { 'a~': 1 },
      patch: [{ op: 'remove', path: '/a~' }],
      message: /invalid path/,
    },
    {
      rule: 'remove of the whole document',
      document: { a: 1 },
      patch: [{ op: 'remove', path: '' }],
      message: /cannot remove the whole document/,
    },
    {
      rule: 'a later operation that does not fit',
      document: { a: 1 },
      patch: [
        { op: 'remove', path: '/a' },
        { op: 'remove', path: '/a' },
      ],
      message: /path \/a does not exist/,
    },
  ];
  for (const row of refusals) {
    test(`refuses ${row.rule}, leaving its input alone`, () => {
      const before = structuredClone(row.document);
      assert.throws(() => applyPatch(row.document, row.patch), row.message);
      assert.deepEqual(row.document, before);
    });
  }
});

/** Member names chosen to hit escaping and prototype names often. */
const names = ['', 'a', 'b', '/', '~', '~0', '~1', 'a/b~c', '__proto__', 'constructor', 'toString'];
const key = fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 4 }));
const { json } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 4 })),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('json')), { maxLength: 5 }).map((entries) => object(...entries)),
  ),
}));
/** An edit of a document: down `path` (indexes among object members), then set or remove. */
const edit = fc.record({
  path: fc.array(fc.nat(), { maxLength: 3 }),
  remove: fc.nat(),
  name: key,
  value: json,
});
/** Pairs that share structure, so that diffs go deep rather than replace at the root. */
const related = fc
  .tuple(
    json.map((a) => (isObject(a) ? a : object(['a', a]))),
    fc.array(edit, { minLength: 1, maxLength: 4 }),
  )
  .map(([a, edits]): [JsonValue, JsonValue] => {
    const b = structuredClone(a) as Record<string, JsonValue>;
    for (const { path, remove, name, value } of edits) {
      let target = b;
      for (const index of path) {
        const children = Object.values(target).filter(isObject);
        if (children.length === 0) break;
        target = children[index % children.length] as Record<string, JsonValue>;
      }
      const members = Object.keys(target);
      const gone = members[remove % Math.max(members.length, 1)];
      if (remove % 3 === 0 && gone !== undefined) delete target[gone];
      else Object.defineProperty(target, name, member(value));
    }
    return [a, b];
  });
const pair = fc.oneof(fc.tuple(json, json), related, related);

describe('properties of diff and applyPatch (arbitrary JSON)', () => {
  test('applyPatch(a, diff(a, b)) equals b, and neither function modifies its input', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const [a0, b0] = [structuredClone(a), structuredClone(b)];
        const patch = diff(a, b);
        const patch0 = structuredClone(patch);
        assert.deepEqual(applyPatch(a, patch), b);
        assert.deepEqual([a, b, patch], [a0, b0, patch0]);
      }),
      { numRuns: 2000 },
    );
  });

  test('diff(a, a) is empty, and so is diff(a, a copy of a)', () => {
    fc.assert(
      fc.property(json, (a) => {
        assert.deepEqual(diff(a, a), []);
        assert.deepEqual(diff(a, structuredClone(a)), []);
      }),
      { numRuns: 1000 },
    );
  });

  test('a patch survives JSON (as stored) and still applies', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as JsonValue;
        const stored = viaJson(diff(a, b)) as unknown as JsonPatch;
        assert.deepEqual(viaJson(applyPatch(viaJson(a), stored)), viaJson(b));
      }),
      { numRuns: 1000 },
    );
  });
});
