import { readFileSync, writeFileSync } from 'node:fs';
import { appOperationIds, renderCoverage, withCoverage } from './api-coverage.js';

// `npm run docs:api-coverage -- --write`: docs/api.md's coverage of GitBook 0.202 by tag, from
// the app's own OpenAPI document. Without --write, says whether the doc is current (exit 1 if not).
const path = new URL('../docs/api.md', import.meta.url);
const doc = readFileSync(path, 'utf8');
const updated = withCoverage(doc, renderCoverage(await appOperationIds()));
if (process.argv.includes('--write')) {
  writeFileSync(path, updated);
  process.stdout.write('docs/api.md: coverage of GitBook 0.202 written\n');
} else if (updated === doc) {
  process.stdout.write('docs/api.md: coverage of GitBook 0.202 is current\n');
} else {
  process.stdout.write(
    'docs/api.md: coverage is stale; run `npm run docs:api-coverage -- --write`\n',
  );
  process.exitCode = 1;
}
