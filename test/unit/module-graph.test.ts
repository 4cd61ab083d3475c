import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  cycles,
  documentedGraph,
  type ImportEdge,
  importEdges,
  isModule,
  mermaidGraph,
  runtimeGraph,
} from '../../scripts/module-graph.js';

/**
 * The boundaries of src/ (docs/architecture.md), read from the import statements: pure, no app,
 * no database. Modules may use each other one way only; http/ is framework plumbing and the
 * settings document a leaf, so neither imports a module; migrations import nothing live.
 */

const edges = importEdges();
/** Enum, OrNull…: the one file of http/ the settings document may use (it imports only TypeBox). */
const GENERIC_HELPERS = 'http/schema-helpers.ts';
const list = (found: readonly ImportEdge[]) =>
  found.map((edge) => `${edge.fromFile} → ${edge.toFile}`).join('\n');

describe('the module graph', () => {
  test('no runtime import cycle between modules, http/, db/ and the other parts of src/', () => {
    const found = cycles(runtimeGraph(edges));
    const explain = found.map((group) => {
      const inside = edges.filter(
        (edge) =>
          !edge.typeOnly &&
          edge.from !== edge.to &&
          group.includes(edge.from) &&
          group.includes(edge.to),
      );
      return `cycle ${group.join(' ↔ ')}:\n${list(inside)}`;
    });
    assert.deepEqual(explain, [], `runtime import cycles:\n${explain.join('\n\n')}`);
  });

  test('http/ imports no module (not even its types)', () => {
    const found = edges.filter((edge) => edge.from === 'http' && isModule(edge.to));
    assert.equal(list(found), '');
  });

  test('src/settings/ is a leaf: it imports no module, nor db/, and of http/ only the generic TypeBox helpers', () => {
    assert.ok(edges.some((edge) => edge.from === 'settings'));
    const found = edges.filter(
      (edge) =>
        edge.from === 'settings' &&
        (isModule(edge.to) ||
          edge.to === 'db' ||
          (edge.to === 'http' && edge.toFile !== GENERIC_HELPERS)),
    );
    assert.equal(list(found), '');
    const helpersImport = edges.filter((edge) => edge.fromFile === GENERIC_HELPERS);
    assert.equal(list(helpersImport), '', `${GENERIC_HELPERS} imports nothing but packages`);
  });

  test('migrations import nothing live outside db/ (what they need is frozen beside them)', () => {
    const found = edges.filter(
      (edge) => edge.fromFile.startsWith('db/migrations/') && !edge.toFile.startsWith('db/'),
    );
    assert.equal(list(found), '');
  });

  test('docs/architecture.md pictures the module graph as it is', () => {
    const current = mermaidGraph(edges);
    assert.equal(
      documentedGraph(),
      current,
      `docs/architecture.md's module graph differs from the code: run \`npm run docs:module-graph -- --write\` (or paste):\n${current}`,
    );
  });
});
