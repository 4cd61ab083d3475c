import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';

/**
 * A deleted space is in the trash for 7 days and read by nobody (docs/content.md): every query
 * that reads the `spaces` table keeps `deleted_at IS NULL`. This test holds every reader in src/
 * to it, so that a new query cannot forget it: a read of `spaces` (selectFrom or a join) must
 * name `deleted_at` within its statement, or say why it includes deleted spaces in a comment
 * just above ("Includes deleted spaces: …", trash-repository.ts only). Migrations are history.
 */
const SRC = new URL('../../src/', import.meta.url).pathname;
const READ = /(?:selectFrom|[jJ]oin)\(\s*'spaces(?: as \w+)?'/g;

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    }),
  );
  return files.flat();
}

/** The statement a read is in: up to its end (`;`), at most 800 characters on. */
function statementAfter(text: string, index: number): string {
  const end = text.indexOf(';', index);
  return text.slice(index, Math.min(end === -1 ? text.length : end, index + 800));
}

test('every read of the spaces table leaves deleted spaces out, or says why not', async () => {
  const unfiltered: string[] = [];
  let reads = 0;
  for (const file of await sources(SRC)) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(READ)) {
      reads += 1;
      const index = match.index ?? 0;
      const before = text.slice(Math.max(0, index - 300), index);
      const lastComment = before.lastIndexOf('Includes deleted spaces');
      const explained = lastComment !== -1 && !before.slice(lastComment).includes(';');
      if (explained || statementAfter(text, index).includes('deleted_at')) continue;
      const line = text.slice(0, index).split('\n').length;
      unfiltered.push(`${relative(SRC, file)}:${line}`);
    }
  }
  assert.ok(reads > 20, `found only ${reads} reads: the pattern no longer matches the code`);
  assert.deepEqual(unfiltered, [], 'reads of `spaces` without deleted_at');
});
