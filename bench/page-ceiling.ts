import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * The page view's ceiling: a bare node:http server answering, to every request, the exact answer
 * Livery gave to the benchmark's page request (bench/page-answer.ts wrote it): the same status,
 * the same headers (Content-Encoding, ETag, Cache-Control, CSP…) and the same body bytes,
 * compressed or not as Livery sent them. What this machine can do at best for that answer.
 */
const recorded = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as {
  status: number;
  headers: Record<string, string>;
  body: string;
};
const body = Buffer.from(recorded.body, 'base64');
const headers = { ...recorded.headers, 'content-length': String(body.length) };
const server = createServer((_request, response) => {
  response.writeHead(recorded.status, headers);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object')
    process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
