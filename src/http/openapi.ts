import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

type DocParameter = { name?: string; deprecated?: boolean; schema?: { deprecated?: boolean } };

const TAGS = [
  {
    name: 'site-customization',
    description: 'Branding, styling and switches of a site and its variants',
  },
  { name: 'sites', description: 'Published documentation sites' },
  { name: 'site-spaces', description: 'Variants of a site (a language, a version, a product)' },
  { name: 'spaces', description: 'Content spaces' },
  { name: 'space-content', description: 'Revisions and pages of a space (docs/content.md)' },
  { name: 'change-requests', description: 'Change requests: branches of a space content' },
  { name: 'change-request-content', description: 'Pages of a change request and their edits' },
  { name: 'insights', description: 'Page views and feedback ratings (docs/insights.md)' },
  { name: 'organizations', description: 'Organizations of the authenticated user' },
  { name: 'users', description: 'Users' },
  { name: 'operations', description: 'Health and documentation (no authentication)' },
];

/**
 * OpenAPI 3.1 generated from the route schemas (`GET /openapi.json`) and Swagger UI served from
 * the package's own files (`GET /docs`), so the documentation works offline. Must be registered
 * before the routes it describes.
 */
export async function registerOpenApi(app: FastifyInstance, baseUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Livery',
        version: '0.1.0',
        description:
          "Customization of published documentation sites, wire-compatible with GitBook's public API (0.130). Operation ids equal GitBook's.",
      },
      servers: [{ url: baseUrl }],
      tags: TAGS,
      components: {
        securitySchemes: {
          user: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API token: printed at first start, or from `npm run livery -- tokens create`',
          },
        },
      },
    },
    // A deprecated parameter is marked on the parameter itself, as GitBook's document does.
    // Page paths are routed as a wildcard (`*`, the rest of the URL); the document names the
    // parameter `pagePath`, as GitBook's does.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      const paths = openapiObject.paths ?? {};
      for (const [path, methods] of Object.entries(paths)) {
        for (const operation of Object.values(methods ?? {})) {
          const parameters = (operation as { parameters?: DocParameter[] }).parameters ?? [];
          for (const parameter of parameters) {
            if (parameter.schema?.deprecated === true) parameter.deprecated = true;
            if (parameter.name === '*') parameter.name = 'pagePath';
          }
        }
        if (path.endsWith('/{*}')) {
          delete paths[path];
          paths[path.replace(/\{\*\}$/, '{pagePath}')] = methods;
        }
      }
      return openapiObject;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
