import type { FastifyInstance } from 'fastify';
import { errorBody } from './error-handler.js';
import { requestIdFrom } from './request-id.js';

const MESSAGE = 'Expect: only 100-continue is supported';

/**
 * A request whose `Expect` header is anything but `100-continue`: Node's HTTP server refuses it
 * before Fastify sees it, with a bare 417 and an empty body, unless the server has a
 * `checkExpectation` listener, which then answers instead. This one answers the same 417 in the
 * API's envelope, with a request id and one log line, on every path (`/v1`, `/s/`, probes): the
 * request is refused at the HTTP level, before any route is chosen.
 */
export function installExpectationCheck(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request, response) => {
    const id = requestIdFrom(request);
    const body = JSON.stringify(errorBody(417, MESSAGE));
    app.log.info(
      {
        reqId: id,
        method: request.method,
        url: request.url,
        statusCode: 417,
        expect: request.headers.expect,
      },
      'request',
    );
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': id,
    });
    response.end(body);
  });
}
