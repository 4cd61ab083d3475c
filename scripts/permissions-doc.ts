import { writeFileSync } from 'node:fs';
import { renderPermissionsDoc } from '../src/modules/access/permissions-doc.js';

// `npm run docs:permissions`: docs/permissions.md from the table the code enforces.
writeFileSync(new URL('../docs/permissions.md', import.meta.url), renderPermissionsDoc());
process.stdout.write('docs/permissions.md written\n');
