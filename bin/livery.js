#!/usr/bin/env node
// `npx livery <command>` from a checkout, with no build step: the TypeScript sources run through
// tsx, in this process, as `npm run livery` runs them (`node --import tsx src/cli.ts`).
import { register } from 'tsx/esm/api';

// The packages every command's modules import, loaded by Node itself before tsx's hooks are
// registered: through the hooks each of their files costs a round trip to tsx's loader thread
// (TypeBox alone is 700 files: 0.34 s by Node, 1.3 s through tsx here). Loaded first, the
// sources' imports of them find them in the module cache. docs/BENCHMARKS.md, "livery preview".
await Promise.all(
  [
    'typebox',
    'fastify',
    'kysely',
    'markdown-it',
    'yaml',
    'pino',
    'ajv',
    'ajv-formats',
    'prom-client',
    'piscina',
    'jose',
    'better-sqlite3',
    '@fastify/cookie',
    '@fastify/csrf-protection',
    'secure-json-parse',
    'find-my-way',
    'pg',
    '@fastify/swagger',
    '@fastify/swagger-ui',
    'shiki/core',
    'shiki/engine/javascript',
    'shiki/langs',
    'shiki/themes',
  ].map((name) => import(name)),
);
register();
const { runAsProgram } = await import('../src/cli.ts');
runAsProgram();
