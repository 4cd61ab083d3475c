import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DirectoryReader } from '../../src/modules/git-sync/import/directory.js';

/** The working-tree reader of `livery preview` (docs/preview.md, "What it reads"). */
const top = mkdtempSync(join(tmpdir(), 'livery-directory-reader-'));
after(() => rmSync(top, { recursive: true, force: true }));

function folderWith(files: Record<string, string>): string {
  const folder = mkdtempSync(join(top, 'folder-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

test('oids are Git blob ids; .git and node_modules are not read', async () => {
  const folder = folderWith({
    'README.md': '# Hi\n',
    'guide/setup.md': 'Setup\n',
    '.git/config': '[core]\n',
    'node_modules/x/index.js': 'x\n',
    'sub/.git': 'gitdir: elsewhere\n',
  });
  const snapshot = await new DirectoryReader(folder).snapshot();
  assert.deepEqual(
    snapshot.entries.map((e) => e.path),
    ['README.md', 'guide/setup.md'],
  );
  const readme = snapshot.entries[0];
  assert.ok(readme);
  const expected = execFileSync('git', ['hash-object', join(folder, 'README.md')], {
    encoding: 'utf8',
  }).trim();
  assert.equal(readme.oid, expected);
  assert.equal(readme.size, 5);
  assert.equal((await snapshot.read([readme.oid])).get(readme.oid)?.toString(), '# Hi\n');
});

test('a saved change moves the oid and the snapshot id; no change keeps both', async () => {
  const folder = folderWith({ 'a.md': 'one\n' });
  const reader = new DirectoryReader(folder);
  const first = await reader.snapshot();
  const same = await reader.snapshot();
  assert.equal(same.oid, first.oid);
  writeFileSync(join(folder, 'a.md'), 'two\n'); // same size, same second: hashed again
  const changed = await reader.snapshot();
  assert.notEqual(changed.oid, first.oid);
  assert.notEqual(changed.entries[0]?.oid, first.entries[0]?.oid);
});

test('links: followed inside the folder, listed as links (never read) when they escape', async () => {
  const outside = folderWith({ 'secret.md': 'TOP SECRET\n' });
  const folder = folderWith({ 'page.md': 'Page\n', 'docs/inner.md': 'Inner\n' });
  symlinkSync(join(outside, 'secret.md'), join(folder, 'leak.md'));
  symlinkSync(outside, join(folder, 'leakdir'));
  symlinkSync(join(folder, 'page.md'), join(folder, 'alias.md'));
  symlinkSync(join(folder, 'docs'), join(folder, 'docs-again'));
  symlinkSync(folder, join(folder, 'docs', 'loop'));
  symlinkSync(join(folder, 'missing.md'), join(folder, 'dangling.md'));
  const snapshot = await new DirectoryReader(folder).snapshot();
  const modes = Object.fromEntries(snapshot.entries.map((e) => [e.path, e.mode]));
  assert.deepEqual(modes, {
    'alias.md': '100644',
    'dangling.md': '120000',
    'docs/inner.md': '100644',
    'leak.md': '120000',
    leakdir: '120000',
    'page.md': '100644',
  });
  const all = await snapshot.read(snapshot.entries.map((e) => e.oid));
  for (const bytes of all.values()) assert.doesNotMatch(bytes.toString(), /TOP SECRET/);
});
