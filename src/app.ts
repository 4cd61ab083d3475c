import { readFile } from 'node:fs/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import { Type } from 'typebox';
import { registerBrowserFacing } from './browser-facing.js';
import type { Config } from './config.js';
import { type Db, freshnessFenceOf } from './db/database.js';
import { installErrorHandlers } from './http/error-handler.js';
import { installExpectationCheck } from './http/expect.js';
import { frameworkErrors } from './http/framework-errors.js';
import { installIdempotency } from './http/idempotency.js';
import { BODY_LIMIT, installJsonBodyParser } from './http/json-body.js';
import { installKeptAnswers } from './http/kept-answers.js';
import { indexMethods } from './http/method-index.js';
import { registerOpenApi } from './http/openapi.js';
import { installOperations, installRateLimit, serverTimeouts } from './http/operations.js';
import { requestIdFrom } from './http/request-id.js';
import { installTextGuard } from './http/text-guard.js';
import { installValidators } from './http/validation.js';
import { installAccessControl, installPermissions } from './modules/access/auth.js';
import { principalOf } from './modules/access/permission-checks.js';
import { installSiteTokenAnswers } from './modules/access/site-token-answers.js';
import { auditEventRoutes } from './modules/audit/event-routes.js';
import { AuditEventsService } from './modules/audit/events.js';
import { AuditRepository } from './modules/audit/repository.js';
import { auditRoutes } from './modules/audit/routes.js';
import { AuditService } from './modules/audit/service.js';
import { changeRequestRoutes } from './modules/content/change-request-routes.js';
import { ChangeRequestsService } from './modules/content/change-requests-service.js';
import { revisionReadRoutes } from './modules/content/read-routes.js';
import { ContentRepository } from './modules/content/repository.js';
import { RevisionReadsService } from './modules/content/revision-changes.js';
import { contentRoutes } from './modules/content/routes.js';
import { ContentService } from './modules/content/service.js';
import { CustomFontsRepository } from './modules/custom-fonts/repository.js';
import { customFontsRoutes } from './modules/custom-fonts/routes.js';
import { CustomFontsService } from './modules/custom-fonts/service.js';
import { customizationHistoryRoutes } from './modules/customization/history-routes.js';
import { CustomizationHistoryService } from './modules/customization/history-service.js';
import { CustomizationRepository } from './modules/customization/repository.js';
import { customizationRoutes } from './modules/customization/routes.js';
import { CustomizationService } from './modules/customization/service.js';
import { FilesRepository } from './modules/files/repository.js';
import { fileRoutes } from './modules/files/routes.js';
import { FilesService } from './modules/files/service.js';
import { gitSource } from './modules/git-sync/import/fetch.js';
import { gitLinkRoutes } from './modules/git-sync/links/routes.js';
import { GitLinksService } from './modules/git-sync/links/service.js';
import { gitWebhookRoutes } from './modules/git-sync/links/webhook-route.js';
import { gitSyncRoutes } from './modules/git-sync/routes.js';
import { GitSyncService } from './modules/git-sync/service.js';
import { GitExportService } from './modules/git-sync/sync/service.js';
import { organizationRoutes } from './modules/identity/organization-routes.js';
import { OrganizationsService } from './modules/identity/organizations.js';
import { IdentityRepository } from './modules/identity/repository.js';
import { identityRoutes } from './modules/identity/routes.js';
import { IdentityService } from './modules/identity/service.js';
import { tokenRoutes } from './modules/identity/token-routes.js';
import { TokensService } from './modules/identity/tokens-service.js';
import { InsightsRepository } from './modules/insights/repository.js';
import { insightsRoutes } from './modules/insights/routes.js';
import { InsightsService } from './modules/insights/service.js';
import { InvitesRepository } from './modules/invites/repository.js';
import { invitesRoutes } from './modules/invites/routes.js';
import { InvitesService } from './modules/invites/service.js';
import { MembersRepository } from './modules/members/repository.js';
import { membersRoutes } from './modules/members/routes.js';
import { MembersService } from './modules/members/service.js';
import { PreviewsRepository } from './modules/previews/repository.js';
import { previewLinkRoutes } from './modules/previews/routes.js';
import { ChangeRequestPreviewsService } from './modules/previews/service.js';
import { SiteHostnames } from './modules/published/access/site-hostnames.js';
import { previewRoutes } from './modules/published/preview-routes.js';
import { PublishingPreviews } from './modules/published/publishing-preview.js';
import { publishingPreviewRoutes } from './modules/published/publishing-preview-routes.js';
import { PublishedRepository } from './modules/published/repository.js';
import { plain404 } from './modules/published/routes.js';
import { PublishedSiteService } from './modules/published/service.js';
import { RedirectsRepository } from './modules/redirects/repository.js';
import { redirectsRoutes } from './modules/redirects/routes.js';
import { RedirectsService } from './modules/redirects/service.js';
import { rendererRoutes } from './modules/renderer/routes.js';
import { RendererReadsService } from './modules/renderer/service.js';
import { installRevalidation } from './modules/revalidation/install.js';
import { contentSearchRoutes } from './modules/search/content-routes.js';
import { ContentSearchService } from './modules/search/content-search.js';
import { searchRoutes } from './modules/search/routes.js';
import { SearchService } from './modules/search/service.js';
import { ShareLinksRepository } from './modules/share-links/repository.js';
import { shareLinkRoutes } from './modules/share-links/routes.js';
import { ShareLinksService } from './modules/share-links/service.js';
import { siteGitSyncRoutes } from './modules/site-git-sync/routes.js';
import { SiteGitSyncService } from './modules/site-git-sync/service.js';
import { SiteTokenGate } from './modules/site-tokens/gate.js';
import { SiteTokenKeys } from './modules/site-tokens/keys.js';
import { SiteTokens } from './modules/site-tokens/site-token.js';
import { CustomHostnamesService } from './modules/sites/custom-hostnames.js';
import { customHostnamesRoutes } from './modules/sites/custom-hostnames-routes.js';
import { ownHostsOf } from './modules/sites/hostname.js';
import { SitesRepository } from './modules/sites/repository.js';
import { sitesRoutes } from './modules/sites/routes.js';
import { SpaceKeyedScope, siteKeyedScope } from './modules/sites/scope.js';
import { SitesService } from './modules/sites/service.js';
import { SiteSpacesRepository } from './modules/sites/site-spaces-repository.js';
import { siteSpacesRoutes } from './modules/sites/site-spaces-routes.js';
import { SiteSpacesService } from './modules/sites/site-spaces-service.js';
import { SiteStructureChanges } from './modules/sites/structure/changes-service.js';
import { SiteStructureRepository } from './modules/sites/structure/repository.js';
import { siteStructureRoutes } from './modules/sites/structure/routes.js';
import { SiteStructureService } from './modules/sites/structure/service.js';
import { SpaceLifecycle } from './modules/spaces/lifecycle.js';
import { SpacesRepository } from './modules/spaces/repository.js';
import { spacesRoutes } from './modules/spaces/routes.js';
import { SpacesService } from './modules/spaces/service.js';
import { SpaceTrashSweep } from './modules/spaces/trash.js';
import { SpaceTrashRepository } from './modules/spaces/trash-repository.js';
import { StorageRepository } from './modules/storage/repository.js';
import { storageRoutes } from './modules/storage/routes.js';
import { StorageService } from './modules/storage/service.js';
import { StudioSessions } from './modules/studio/sessions.js';
import { TeamsRepository } from './modules/teams/repository.js';
import { teamsRoutes } from './modules/teams/routes.js';
import { TeamsService } from './modules/teams/service.js';
import { themeRoutes } from './modules/theme/routes.js';
import { ContentByUrlService } from './modules/urls/content-by-url.js';
import { contentUrlRoutes } from './modules/urls/content-url-routes.js';
import { urlRoutes } from './modules/urls/routes.js';
import { UrlLookupService } from './modules/urls/service.js';
import { PublishingAuthRepository } from './modules/visitor-auth/repository.js';
import { publishingAuthRoutes } from './modules/visitor-auth/routes.js';
import { PublishingAuthService } from './modules/visitor-auth/service.js';
import { ServerKey } from './server-key.js';
import { Urls } from './urls.js';
import { Workers } from './workers/index.js';
import { registerWorkerMetrics } from './workers/metrics.js';

export interface AppDependencies {
  config: Config;
  db: Db;
  /** Where logs go (default stdout); tests pass a stream to read them. */
  logStream?: DestinationStream;
  /**
   * The time, in ms since the epoch, for what is measured in days (the trash of spaces: its 7
   * days); default Date.now. A test restarts the app with it moved on instead of waiting.
   */
  clock?: () => number;
  /**
   * Given the app and its services once they are built (its root hooks see every request, the
   * routes registered before them too): `livery preview`'s read-only guard, page rewriting and
   * folder import (src/preview/).
   */
  extend?: (app: FastifyInstance, services: ReturnType<typeof buildServices>) => void;
  /**
   * No `/v1` API and no OpenAPI description (`livery preview`: nobody has a token, and the API's
   * schemas take seconds to compile when the app starts). The published sites are served.
   */
  withoutApi?: boolean;
}

/**
 * The services of one Livery instance, built once and shared by every request. Its worker
 * threads (`workers`) start with their first task; whoever builds the services closes them.
 */
export function buildServices(
  { config, db, clock = Date.now }: AppDependencies,
  workers: Workers = new Workers(config.workers),
  /** The map of custom hostnames the app routes requests by (buildApp's). */
  siteHostnames: SiteHostnames = new SiteHostnames(db),
) {
  const urls = new Urls(config.baseUrl, config.publicUrl, config.customHostnameScheme);
  // The server's key (src/server-key.ts): one instance, loaded at its first use.
  const serverKey = new ServerKey(config.gitSync.secretKey);
  const identity = new IdentityService(new IdentityRepository(db), urls);
  const liveSpaces = new SpacesRepository(db);
  const spaces = new SpacesService(liveSpaces, identity, urls, config.gitSync.operationTimeoutMs);
  const spaceTrash = new SpaceTrashRepository(db);
  const spaceLifecycle = new SpaceLifecycle(spaceTrash, liveSpaces, spaces, clock);
  const spaceTrashSweep = new SpaceTrashSweep(spaceTrash, clock);
  const sites = new SitesService(new SitesRepository(db), spaces, urls, {
    own: ownHostsOf(config.baseUrl, config.publicUrl),
    changed: () => siteHostnames.reload(),
  });
  const customHostnames = new CustomHostnamesService(
    sites,
    (userId, organizationId) =>
      identity.requireMember(userId, organizationId).catch(() => undefined),
    urls,
  );
  const siteStructureRepository = new SiteStructureRepository(db);
  const siteSpaces = new SiteSpacesService(
    new SiteSpacesRepository(db),
    sites,
    spaces,
    urls,
    siteStructureRepository,
  );
  const structureDeps = { sites, siteSpaces, spaces, urls };
  const siteStructure = new SiteStructureService(siteStructureRepository, structureDeps);
  const siteStructureChanges = new SiteStructureChanges(
    siteStructureRepository,
    structureDeps,
    siteStructure,
  );
  const shareLinks = new ShareLinksService(new ShareLinksRepository(db), sites, urls);
  const publishingAuth = new PublishingAuthService(new PublishingAuthRepository(db), sites);
  const customizationRepository = new CustomizationRepository(db, config.customizationHistoryKeep);
  const customization = new CustomizationService(customizationRepository);
  const customizationHistory = new CustomizationHistoryService(customizationRepository);
  const auditRepository = new AuditRepository(db);
  const audit = new AuditService(auditRepository, config.auditLogKeepDays);
  const auditEvents = new AuditEventsService(auditRepository, audit, urls);
  const organizations = new OrganizationsService(db, identity);
  const tokens = new TokensService(identity, urls);
  const members = new MembersService(new MembersRepository(db), identity, spaces);
  const teams = new TeamsService(new TeamsRepository(db), members);
  const invites = new InvitesService(
    new InvitesRepository(db),
    identity,
    urls,
    config.inviteTtlDays,
  );
  const spaceKeyed = new SpaceKeyedScope(spaces, sites, urls);
  const contentRepository = new ContentRepository(db);
  const filesRepository = new FilesRepository(db);
  const files = new FilesService(filesRepository, config.publicUrl);
  const content = new ContentService(contentRepository, spaces, urls, workers, files);
  // Uploads (docs/uploads.md): stored in the file store revision files use, served as they are.
  const storage = new StorageService(new StorageRepository(db), {
    key: serverKey,
    publicUrl: config.publicUrl,
    fileUrl: (file) => files.urlOf(file),
  });
  const changeRequests = new ChangeRequestsService(contentRepository, spaces, identity, urls, {
    workers,
    limits: config.contentLimits,
  });
  const insights = new InsightsService(new InsightsRepository(db), content, urls);
  const publishedRepository = new PublishedRepository(db);
  const siteTokenKeys = new SiteTokenKeys(db);
  const siteTokens = new SiteTokens(siteTokenKeys);
  const siteTokenGate = new SiteTokenGate({
    published: publishedRepository,
    content,
    shareLinks,
    publishingAuth,
  });
  const urlLookup = new UrlLookupService(db, {
    published: publishedRepository,
    shareLinks,
    publishingAuth,
    siteTokens,
    publicUrl: config.publicUrl,
  });
  const contentByUrl = new ContentByUrlService({
    baseUrl: config.baseUrl,
    publicUrl: config.publicUrl,
    published: publishedRepository,
    shareLinks,
    spaces,
    content,
    changeRequests,
  });
  const redirects = new RedirectsService(db, new RedirectsRepository(db), {
    requireSite: (organizationId, siteId) => sites.requireSite(organizationId, siteId),
    variantsOf: (siteId) => publishedRepository.variantsOf(siteId),
    revisionOf: (spaceId) => content.revisionFor(spaceId, { kind: 'space' }),
    // A site's own addresses, by id, by basename and at its custom hostname.
    siteRoots: (site) => [
      ...[site.id, ...(site.basename === null ? [] : [site.basename])].map(
        (address) => `${urls.publicBase}${address}/`,
      ),
      ...(site.hostname === null ? [] : [urls.publishedSite(site)]),
    ],
  });
  const rendererReads = new RendererReadsService(db, {
    publishedSite: (site) => {
      const url = urls.publishedSite(site);
      return url.endsWith('/') ? url : `${url}/`;
    },
    sites,
    structure: siteStructure,
    customization,
    content,
    published: publishedRepository,
    redirects,
  });
  const published = new PublishedSiteService(publishedRepository, {
    content,
    files,
    customization,
    identity,
    shareLinks,
    publishingAuth,
    mount: new URL(config.publicUrl).pathname,
    apiBase: config.baseUrl,
    publicUrl: config.publicUrl,
    hostnameRoot: urls.hostnameRoot,
    workers,
    key: serverKey,
  });
  const publishingPreviews = new PublishingPreviews(publishedRepository, {
    key: serverKey,
    publicUrl: config.publicUrl,
    hostnameRoot: urls.hostnameRoot,
  });
  const previews = new ChangeRequestPreviewsService(new PreviewsRepository(db), {
    content,
    changeRequests: contentRepository,
    published,
    key: serverKey,
    publicUrl: config.publicUrl,
    mount: new URL(config.publicUrl).pathname,
  });
  const search = new SearchService({
    sites,
    content,
    variantsOf: (siteId) => publishedRepository.variantsOf(siteId),
    urls,
    workers,
  });
  const studioSessions = new StudioSessions(db, identity, config.studioSessionHours);
  const source = gitSource(config.gitSync);
  const gitSync = GitSyncService.create(db, {
    spaces,
    content: contentRepository,
    files: filesRepository,
    source,
    config: config.gitSync,
    limits: config.contentLimits,
  });
  // What a space's export reads and writes with: the space export's and each space of a site export's.
  const syncDeps = {
    spaces,
    content: contentRepository,
    files: filesRepository,
    filesService: files,
    source,
    config: config.gitSync,
    limits: config.contentLimits,
  };
  const gitExport = new GitExportService(gitSync, syncDeps);
  const gitLinks = new GitLinksService(db, {
    gitSync,
    gitExport,
    content: contentRepository,
    source,
    key: serverKey,
    config: config.gitSync,
    baseUrl: config.baseUrl,
  });
  const siteGitSync = new SiteGitSyncService(db, {
    sites,
    structure: siteStructureRepository,
    customization,
    gitSync,
    source,
    config: config.gitSync,
    sync: syncDeps,
  });
  sites.useGitSyncStates((ids) => siteGitSync.statesOf(ids));
  const customFonts = new CustomFontsService(new CustomFontsRepository(db), {
    objectOf: (organizationId, key) => storage.objectOf(organizationId, key),
  });
  contentRepository.onSpaceMoved((spaceId, how) => gitLinks.spaceMoved(spaceId, how));
  // A branch imported as a change request gets its preview link (docs/change-request-previews.md).
  gitLinks.usePreviews(previews);
  return {
    gitSync,
    siteGitSync,
    gitExport,
    gitLinks,
    serverKey,
    previews,
    publishingPreviews,
    workers,
    files,
    filesRepository,
    storage,
    contentRepository,
    audit,
    auditEvents,
    organizations,
    studioSessions,
    siteTokenKeys,
    siteTokens,
    siteTokenGate,
    urlLookup,
    contentByUrl,
    rendererReads,
    redirects,
    published,
    search,
    content,
    changeRequests,
    insights,
    urls,
    identity,
    spaces,
    spaceLifecycle,
    spaceTrashSweep,
    sites,
    siteHostnames,
    customHostnames,
    siteSpaces,
    siteStructure,
    siteStructureChanges,
    shareLinks,
    publishingAuth,
    customization,
    customizationHistory,
    customFonts,
    tokens,
    members,
    teams,
    invites,
    spaceKeyed,
  };
}

const DEPRECATIONS_DOC = new URL('../docs/deprecations.md', import.meta.url);

/**
 * The HTTP application, without side effects: no listening, no migrations, no signals. Tests and
 * scripts build it against their own database; `server.ts` runs it as a process.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  // Requests for a site's custom hostname are routed to the site before Fastify's router runs.
  const siteHostnames = new SiteHostnames(deps.db);
  const hostedRouting = {
    trustProxy: config.trustProxy,
    mount: new URL(config.publicUrl).pathname,
  };
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(deps.logStream === undefined ? {} : { stream: deps.logStream }),
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    genReqId: requestIdFrom,
    requestIdHeader: false,
    // Fastify's two lines per request are replaced by the one `onResponse` line below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: false, // installOperations answers the 503 of a closing server
    ...serverTimeouts(config),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    rewriteUrl: (request) => siteHostnames.rewrite(request, hostedRouting),
    trustProxy: config.trustProxy,
    frameworkErrors: (error, request, reply) => frameworkErrors(error, request, reply, plain404),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const methods = indexMethods(app);
  installValidators(app);
  installExpectationCheck(app);
  installJsonBodyParser(app);
  installErrorHandlers(app, methods, config.database);
  app.decorateRequest('principal', null);
  app.decorateRequest('memberRole', null);
  app.decorateRequest('siteToken', null);
  app.decorateRequest('viaSession', false);

  // Callback-style hooks: they run on every request, and need no promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // One line per request (instead of Fastify's two), with the request id as `reqId`.
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });

  if (deps.withoutApi !== true) await registerOpenApi(app, config.baseUrl);
  const workers = new Workers(config.workers);
  await installOperations(app, deps, workers);
  registerWorkerMetrics(app.metricsRegistry, workers);
  const services = buildServices(deps, workers, siteHostnames);
  siteHostnames.useLog((error) => app.log.warn({ err: error }, 'custom hostnames: reload failed'));
  app.addHook('onReady', () => siteHostnames.reload());
  deps.extend?.(app, services);
  services.gitSync.useLog(app.log);
  services.siteGitSync.useLog(app.log);
  services.gitLinks.useLog(app.log);
  const revalidateSpace = installRevalidation(app, config, deps.db);
  if (revalidateSpace !== undefined) {
    services.gitSync.onImported(revalidateSpace);
    services.gitExport.onImported(revalidateSpace);
  }
  // Old audit entries are deleted hourly while the server runs (reads leave them out anyway).
  app.addHook('onReady', (done) => {
    services.audit.start((error) => app.log.warn({ err: error }, 'audit log pruning failed'));
    // Spaces deleted more than 7 days ago are purged now and hourly (spaces/trash.ts).
    services.spaceTrashSweep.start((error) =>
      app.log.warn({ err: error }, 'purging deleted spaces failed'),
    );
    services.gitLinks.start();
    done();
  });
  app.addHook('onClose', async () => {
    services.audit.stop();
    await services.spaceTrashSweep.stop();
    services.gitLinks.stop();
    await services.siteGitSync.close();
    await services.gitSync.close();
    await workers.close();
  });

  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness: the process answers (the database is for /readyz)',
        tags: ['operations'],
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    // No database query: every database fault (gone, dropped, read-only, disk full) is cured by
    // the operator, not by restarting this process, which recovers by itself; /readyz names it.
    async () => ({ status: 'ok' as const }),
  );

  app.get('/docs/deprecations', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/markdown; charset=utf-8').send(await readFile(DEPRECATIONS_DOC, 'utf8')),
  );

  // Published sites and Livery Studio first: /v1 checks the studio's CSRF tokens with their check.
  const csrfProtection = await registerBrowserFacing(app, deps, services);
  if (deps.withoutApi === true) return app;

  await app.register(
    async (v1) => {
      installTextGuard(v1); // first: ill-formed text in the URL must not reach the database
      const fence = freshnessFenceOf(deps.db);
      // PostgreSQL: first make sure this process has heard of every commit made before the
      // request arrived, by any process, so that no cached read answers older data.
      if (fence !== undefined) v1.addHook('onRequest', () => fence());
      installPermissions(v1);
      installAccessControl(
        v1,
        services.identity,
        (spaceId, inTrash) =>
          inTrash
            ? services.spaceLifecycle.organizationOfAny(spaceId)
            : services.spaces.organizationOf(spaceId),
        { tokens: services.siteTokens, gate: services.siteTokenGate },
        { sessions: services.studioSessions, csrfProtection },
      );
      installSiteTokenAnswers(v1);
      // After the site-token filter: what is kept is the answer as it leaves.
      installKeptAnswers(v1, (request) =>
        request.siteToken === null ? `member ${request.memberRole}` : 'site token',
      );
      installRateLimit(v1, config.rateLimitPerMinute);
      installIdempotency(v1, {
        db: deps.db,
        keyOwnerOf: (request) => principalOf(request).userId,
      });
      v1.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, security: [{ user: [] }] };
      });
      await v1.register(identityRoutes, { identity: services.identity });
      await v1.register(organizationRoutes, {
        organizations: services.organizations,
        urls: services.urls,
      });
      await v1.register(tokenRoutes, { tokens: services.tokens });
      await v1.register(membersRoutes, { members: services.members });
      await v1.register(teamsRoutes, { teams: services.teams, urls: services.urls });
      await v1.register(auditRoutes, { audit: services.audit });
      await v1.register(auditEventRoutes, { events: services.auditEvents });
      await v1.register(invitesRoutes, { invites: services.invites, identity: services.identity });
      const { shareLinks, publishingAuth, spaceKeyed } = services;
      await v1.register(spacesRoutes, {
        spaces: services.spaces,
        lifecycle: services.spaceLifecycle,
        sites: services.sites,
        spaceKeyed,
        urls: services.urls,
      });
      await v1.register(contentRoutes, {
        content: services.content,
        changeRequests: services.changeRequests,
      });
      await v1.register(revisionReadRoutes, {
        reads: new RevisionReadsService({
          content: services.content,
          repo: services.contentRepository,
          files: services.files,
          changeRequests: services.changeRequests,
        }),
      });
      await v1.register(changeRequestRoutes, {
        changeRequests: services.changeRequests,
        // A page of PAGE_MAX_BYTES, escaped in JSON, and the rest of the list.
        contentBodyLimit: BODY_LIMIT + 2 * config.contentLimits.pageBytes,
      });
      await v1.register(insightsRoutes, {
        insights: services.insights,
        siteSpaces: services.siteSpaces,
      });
      await v1.register(sitesRoutes, { sites: services.sites });
      await v1.register(customHostnamesRoutes, { hostnames: services.customHostnames });
      await v1.register(siteSpacesRoutes, { siteSpaces: services.siteSpaces });
      await v1.register(redirectsRoutes, { redirects: services.redirects, urls: services.urls });
      await v1.register(siteStructureRoutes, {
        structure: services.siteStructure,
        changes: services.siteStructureChanges,
      });
      await v1.register(siteGitSyncRoutes, { siteGitSync: services.siteGitSync });
      for (const scope of [siteKeyedScope, spaceKeyed]) {
        await v1.register(async (scoped) => {
          if (scope === spaceKeyed) spaceKeyed.install(scoped);
          await scoped.register(shareLinkRoutes, { shareLinks, scope });
          await scoped.register(publishingAuthRoutes, { publishingAuth, scope });
        });
      }
      await v1.register(customizationRoutes, {
        customization: services.customization,
        urls: services.urls,
      });
      await v1.register(customFontsRoutes, { fonts: services.customFonts, urls: services.urls });
      await v1.register(customizationHistoryRoutes, {
        customization: services.customization,
        history: services.customizationHistory,
      });
      await v1.register(themeRoutes, {
        customization: services.customization,
        fontsBase: `${config.publicUrl}@livery/fonts/`,
      });
      await v1.register(previewRoutes, { published: services.published });
      await v1.register(publishingPreviewRoutes, {
        previews: services.publishingPreviews,
      });
      await v1.register(urlRoutes, { lookup: services.urlLookup, urls: services.urls });
      await v1.register(contentUrlRoutes, { byUrl: services.contentByUrl });
      await v1.register(rendererRoutes, { reads: services.rendererReads });
      await v1.register(searchRoutes, { search: services.search });
      await v1.register(contentSearchRoutes, {
        contentSearch: new ContentSearchService(services.search, services.spaces),
      });
      await v1.register(fileRoutes, { files: services.files, content: services.content });
      await v1.register(storageRoutes, { storage: services.storage });
      await v1.register(gitSyncRoutes, {
        gitSync: services.gitSync,
        gitExport: services.gitExport,
      });
      await v1.register(gitLinkRoutes, { links: services.gitLinks });
      await v1.register(gitWebhookRoutes, { links: services.gitLinks });
      await v1.register(previewLinkRoutes, { previews: services.previews });
    },
    { prefix: '/v1' },
  );

  return app;
}
