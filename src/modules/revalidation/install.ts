import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { siteTag, spaceTag } from './cache-headers.js';
import { RevalidationNotifier } from './notifier.js';
import { tagLookups } from './repository.js';
import { tagsOf, triggerOf } from './triggers.js';

/**
 * Cache invalidation for GitBook's renderer (docs/renderer-cache.md): after each write of
 * triggers.ts answered 2xx, its tags go to the renderer. Installed on the root after `/metrics`
 * and before the routes. Without RENDERER_REVALIDATE_URL it installs nothing.
 */
export function installRevalidation(
  app: FastifyInstance,
  config: Config,
  db: Db,
): ((spaceId: string) => void) | undefined {
  const settings = config.rendererRevalidation;
  if (settings === undefined) return undefined;
  const log = app.log.child({ module: 'revalidation' });
  const notifier = new RevalidationNotifier(settings, log, app.metricsRegistry);
  const lookups = tagLookups(db);
  /** Tags found before a write that may unlink what they name (a deleted variant's space). */
  const before = new WeakMap<FastifyRequest, string[]>();
  /** Tag look-ups still running, awaited at close. */
  const running = new Set<Promise<void>>();

  // After authentication and validation, so that only a write that may succeed looks anything up.
  // Callback style: no promise for the requests that are not such writes.
  app.addHook('preHandler', (request, _reply, done) => {
    const trigger = triggerOf(request);
    if (!trigger?.spaceLanguages) return done();
    tagsOf(request, trigger, lookups).then(
      (tags) => {
        before.set(request, tags);
        done();
      },
      () => done(),
    ); // tagsOf logs its own failures; the write goes on regardless
  });

  // After the answer is sent: the write waits for nothing here and cannot fail because of it.
  app.addHook('onResponse', (request, reply, done) => {
    const trigger = triggerOf(request);
    if (trigger !== undefined && reply.statusCode >= 200 && reply.statusCode < 300) {
      const earlier = before.get(request) ?? [];
      const lookup = tagsOf(request, trigger, lookups).then((tags) =>
        notifier.notify([...earlier, ...tags]),
      );
      running.add(lookup);
      void lookup.finally(() => running.delete(lookup));
    }
    done();
  });

  app.addHook('onClose', async () => {
    await Promise.all(running);
    await notifier.close();
  });

  // A write that ends after its request (a Git import, docs/git-sync.md): the space's content
  // changed, so its tag and those of the sites showing it go, as for a merge.
  return (spaceId) => {
    const lookup = lookups
      .sitesShowing(spaceId)
      .catch((error: unknown) => {
        log.error({ err: error }, 'renderer revalidation: a tag look-up failed');
        return [] as string[];
      })
      .then((sites) => notifier.notify([spaceTag(spaceId), ...sites.map(siteTag)]));
    running.add(lookup);
    void lookup.finally(() => running.delete(lookup));
  };
}
