import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';

/**
 * A second router that only knows which methods exist on which paths, so that a request with
 * the wrong method gets 405 and an `Allow` header instead of a 404.
 */
export interface MethodIndex {
  allowed(path: string): string[];
}

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function indexMethods(app: FastifyInstance): MethodIndex {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // A path may be declared twice for one method (e.g. HEAD beside GET); the first is enough.
      if (router.find(method as HTTPMethod, route.url) === null) {
        router.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });
  return {
    allowed: (path) => METHODS.filter((m) => router.find(m, path) !== null),
  };
}
