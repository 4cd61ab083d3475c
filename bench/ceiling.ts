import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * The ceiling: a bare node:http server answering a precomputed body (the same bytes Livery
 * answers) with the same content type. No routing, no auth, no database: what this machine can
 * do at best for a response of that size.
 */
const body = readFileSync(process.argv[2] ?? '', 'utf8');
const length = String(Buffer.byteLength(body));
const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': length,
  });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object')
    process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
