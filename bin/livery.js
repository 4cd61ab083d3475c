#!/usr/bin/env node
// `npx livery <command>` from a checkout, with no build step: the TypeScript sources run through
// tsx, in this process, as `npm run livery` runs them (`node --import tsx src/cli.ts`).
import { register } from 'tsx/esm/api';

register();
const { runAsProgram } = await import('../src/cli.ts');
runAsProgram();
