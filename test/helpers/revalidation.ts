import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The secret shared by Livery (RENDERER_SECRET) and the receiver (the renderer's GITBOOK_SECRET). */
export const SECRET = 'renderer-secret-for-tests';

/** One request the receiver got: its tags, and whether its signature matched the exact body. */
export interface Call {
  tags: string[];
  signed: boolean;
  status: number;
}

/**
 * A stand-in for the renderer's `POST /~gitbook/revalidate`: checks `x-gitbook-signature`
 * (hex HMAC-SHA256 of the raw body with `secret`) and answers 401 when it does not match, 400
 * without `tags`; otherwise the next status of `statuses` (then 200).
 */
export class Receiver {
  readonly calls: Call[] = [];
  private server: Server | undefined;
  private readonly statuses: number[] = [];

  constructor(private readonly secret = SECRET) {}

  get url(): string {
    if (this.server === undefined) throw new Error('start() the receiver first');
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/~gitbook/revalidate`;
  }

  /** The next answers to correctly signed requests, in order. */
  answerNext(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const expected = createHmac('sha256', this.secret).update(body).digest();
        const given = Buffer.from(String(request.headers['x-gitbook-signature'] ?? ''), 'hex');
        const signed = given.length === expected.length && timingSafeEqual(given, expected);
        let tags: string[] = [];
        try {
          const parsed = JSON.parse(body.toString('utf8')) as { tags?: unknown };
          if (Array.isArray(parsed.tags)) tags = parsed.tags.map(String);
        } catch {}
        const status = !signed ? 401 : tags.length === 0 ? 400 : (this.statuses.shift() ?? 200);
        this.calls.push({ tags, signed, status });
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(status === 200 ? { success: true } : { error: 'refused' }));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  reset(): void {
    this.calls.length = 0;
  }

  /** Tags of the requests accepted (200) since the last reset. */
  tags(): string[] {
    return [...new Set(this.calls.filter((c) => c.status === 200).flatMap((c) => c.tags))].sort();
  }

  /** Waits until every one of `tags` has been accepted. */
  async waitForTags(tags: readonly string[]): Promise<void> {
    await waitFor(
      () => tags.every((tag) => this.tags().includes(tag)),
      () => `tags ${JSON.stringify(tags)} (received: ${JSON.stringify(this.calls)})`,
    );
  }
}

/** A port nothing listens on (it was free a moment ago): a renderer that is down. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Polls `done` until it holds. The limit is generous (a loaded CI machine) and only ends a test
 * that would otherwise hang: no test depends on how soon it holds.
 */
export async function waitFor(
  done: () => boolean | Promise<boolean>,
  what: () => string,
  limitMs = 20_000,
) {
  const start = Date.now();
  while (!(await done())) {
    if (Date.now() - start > limitMs) throw new Error(`Timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The value of one sample (`name{labels}` as printed) in Prometheus text, or undefined. */
export function metric(text: string, sample: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}
