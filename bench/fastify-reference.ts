import { readFileSync } from 'node:fs';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';

/**
 * The framework's share: Fastify answering the same bytes on a route shaped like Livery's, with
 * Livery's logging (one buffered JSON line per request), but no authentication, no database and
 * no validation. Livery's distance to this target is what its own code costs.
 */
const body = readFileSync(process.argv[2] ?? '');
const app = Fastify({
  logger: { level: 'info', stream: pino.destination({ dest: 1, sync: true, minLength: 4096 }) },
  logController: new LogController({ disableRequestLogging: true }),
});
app.addHook('onResponse', (request, reply, done) => {
  request.log.info(
    {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      ms: reply.elapsedTime,
    },
    'request',
  );
  done();
});
app.get(
  '/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
  (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(body);
  },
);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
