import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { AppDependencies, buildServices } from './app.js';
import { freshnessFenceOf } from './db/database.js';
import { installTextGuard } from './http/text-guard.js';
import { fileDownloadRoutes } from './modules/files/routes.js';
import { pdfDownloadRoutes } from './modules/pdf/routes.js';
import { previewPageRoutes } from './modules/previews/routes.js';
import { publishedRoutes } from './modules/published/routes.js';
import { uploadRoutes } from './modules/storage/upload-routes.js';
import { studioAssetRoutes } from './modules/studio/asset-routes.js';
import { csrfKeyOf, installCsrf } from './modules/studio/csrf.js';
import { studioSessionRoutes } from './modules/studio/session-routes.js';

/**
 * What browsers use, outside the API's auth: the published sites (docs/published-site.md) and
 * Livery Studio (docs/studio.md). One scope with @fastify/cookie: the visitors' cookies, the
 * studio's session and CSRF secret. Not /v1, whose every request would pay for the plugin's
 * hooks: access/auth.ts parses the cookies of the rare /v1 request without an Authorization
 * header, with the plugin's parser, and checks the studio's CSRF tokens with the check this
 * answers.
 */
export async function registerBrowserFacing(
  app: FastifyInstance,
  deps: AppDependencies,
  services: ReturnType<typeof buildServices>,
): Promise<FastifyInstance['csrfProtection']> {
  const { config } = deps;
  const csrfKey = await csrfKeyOf(deps.db);
  const secureStudio = config.baseUrl.startsWith('https:');
  const installed: { check?: FastifyInstance['csrfProtection'] } = {};
  await app.register(async (browsers) => {
    await browsers.register(fastifyCookie);
    await installCsrf(browsers, csrfKey, secureStudio);
    installed.check = browsers.csrfProtection;
    await browsers.register(async (sites) => {
      const fence = freshnessFenceOf(deps.db);
      if (fence !== undefined) sites.addHook('onRequest', () => fence());
      await sites.register(fileDownloadRoutes, { files: services.files });
      await sites.register(uploadRoutes, { storage: services.storage });
      await sites.register(pdfDownloadRoutes, { pdf: services.pdf });
      await sites.register(publishedRoutes, {
        published: services.published,
        insights: services.insights,
        search: services.search,
        redirects: services.redirects,
        siteEvents: services.siteEvents,
        secureCookies: config.publicUrl.startsWith('https:'),
        pdf: services.pdf,
      });
      await sites.register(previewPageRoutes, { previews: services.previews });
    });
    await browsers.register(async (studio) => {
      installTextGuard(studio); // its organization id reaches the database, as in /v1
      await studio.register(studioAssetRoutes, {
        baseUrl: config.baseUrl,
        publicUrl: config.publicUrl,
      });
      await studio.register(studioSessionRoutes, {
        sessions: services.studioSessions,
        identity: services.identity,
        hours: config.studioSessionHours,
        secureCookies: secureStudio,
      });
    });
  });
  if (installed.check === undefined) throw new Error('the studio scope installs CSRF protection');
  return installed.check;
}
