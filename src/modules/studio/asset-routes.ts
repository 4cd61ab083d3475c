import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, notFound } from '../../errors.js';
import { DEFAULT_SETTINGS } from '../../settings/defaults.js';
import {
  OverridePatchSchema,
  SETTINGS_SHAPE,
  SettingsSchema,
  SITE_LEVEL_ONLY_FIELDS,
} from '../../settings/settings-schema.js';

/** Where scripts/build-studio.ts writes the studio (from src/ and from dist/ alike). */
const BUILT = new URL('../../../dist/studio/', import.meta.url);

/**
 * The studio's page may load only what Livery serves. The preview iframe (srcdoc) inherits this
 * policy: its theme is inline CSS, its logos may be anywhere on https. `files` is PUBLIC_URL's
 * origin when it is not the studio's: uploads are PUT there, uploaded images shown from
 * there (docs/uploads.md), and the preview loads the organization's custom fonts from there.
 */
export function studioCsp(files?: string): string {
  const extra = files === undefined ? '' : ` ${files}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' https: data:${extra}`,
    `font-src 'self' data:${extra}`,
    `connect-src 'self'${extra}`,
    "frame-src 'self' about: data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The settings schema the studio generates its form from: the one that validates the API. */
const SCHEMA_JSON = JSON.stringify({
  settings: SettingsSchema,
  override: OverridePatchSchema,
  shape: SETTINGS_SHAPE,
  defaults: DEFAULT_SETTINGS,
  siteOnly: SITE_LEVEL_ONLY_FIELDS,
});

/** `GET /studio` and its files: built by `npm start` / `npm test`, kept in memory once read. */
export const studioAssetRoutes: FastifyPluginAsyncTypebox<{
  /** BASE_URL and PUBLIC_URL: the second's origin joins the policy when it differs. */
  baseUrl: string;
  publicUrl: string;
}> = async (app, { baseUrl, publicUrl }) => {
  const publicOrigin = new URL(publicUrl).origin;
  const csp = studioCsp(publicOrigin === new URL(baseUrl).origin ? undefined : publicOrigin);
  const files = new Map<string, Buffer>();
  const read = async (name: string): Promise<Buffer | undefined> => {
    const kept = files.get(name);
    if (kept !== undefined) return kept;
    try {
      const content = await readFile(new URL(name, BUILT));
      files.set(name, content);
      return content;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  const hidden = { hide: true };

  app.get('/studio', { schema: hidden }, async (_request, reply) => {
    const html = await read('index.html');
    if (html === undefined) {
      throw new AppError(
        503,
        'Livery Studio is not built: run `npm run build:studio` (npm start and npm test build it)',
        { 'retry-after': '60' },
      );
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(html);
  });

  app.get(
    '/studio/assets/:file',
    { schema: { ...hidden, params: Type.Object({ file: Type.String({ maxLength: 128 }) }) } },
    async (request, reply) => {
      const { file } = request.params;
      const type = TYPES[extname(file)];
      const content =
        type === undefined || basename(file) !== file ? undefined : await read(`assets/${file}`);
      if (content === undefined) throw notFound('file', file);
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .type(type as string)
        .send(content);
    },
  );

  app.get('/studio/schema.json', { schema: hidden }, async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .type('application/json; charset=utf-8')
      .send(SCHEMA_JSON),
  );
};
