/**
 * Keys of answered documents (documents/keys.ts): GitBook's renderer refuses tabs without a `key`
 * and keys its React lists by them, so every block, inline and fragment carries one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markdownToDocument, withKeys } from '../../src/modules/documents/index.js';

const MARKDOWN = `Text with [a link](https://acme.test) and **bold**.

{% tabs %}
{% tab title="npm" %}
\`\`\`sh
npm i acme
\`\`\`
{% endtab %}
{% tab title="yarn" %}
yarn add acme
{% endtab %}
{% endtabs %}

| a | b |
| - | - |
| 1 | 2 |
`;

function nodesOf(node: unknown, found: Record<string, unknown>[] = []) {
  if (typeof node !== 'object' || node === null) return found;
  const n = node as Record<string, unknown>;
  found.push(n);
  for (const child of [...((n.nodes as unknown[]) ?? []), ...((n.fragments as unknown[]) ?? [])]) {
    nodesOf(child, found);
  }
  return found;
}

describe('withKeys', () => {
  const keyed = withKeys(markdownToDocument(MARKDOWN, { title: 'Install' }));
  const all = nodesOf(keyed).filter((n) => n.object !== 'document');

  test('every block, inline and fragment has a key, unique in the document', () => {
    const keyedKinds = all.filter((n) =>
      ['block', 'inline', 'fragment'].includes(n.object as string),
    );
    assert.ok(keyedKinds.some((n) => n.type === 'tabs'));
    assert.ok(keyedKinds.some((n) => n.type === 'tabs-item'));
    assert.ok(keyedKinds.some((n) => n.object === 'inline'));
    assert.ok(keyedKinds.some((n) => n.object === 'fragment'));
    const keys = keyedKinds.map((n) => n.key);
    assert.ok(keys.every((k) => typeof k === 'string' && k !== ''));
    assert.equal(new Set(keys).size, keys.length);
  });

  test('texts and leaves get none; the same Markdown gets the same keys', () => {
    assert.ok(
      all.filter((n) => n.object === 'text' || n.object === 'leaf').every((n) => !('key' in n)),
    );
    assert.deepEqual(withKeys(markdownToDocument(MARKDOWN, { title: 'Install' })), keyed);
  });
});
