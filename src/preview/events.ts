import type { ServerResponse } from 'node:http';
import type { Problem } from './load-folder.js';

/**
 * What open preview pages follow (docs/preview.md, "Live reload"): the content's version, moved
 * on by every load that changed the site or its problems, told to each page over Server-Sent
 * Events; and the problems the page's banner shows.
 */
export class PreviewEvents {
  private current = 0;
  private shown: Problem[] = [];
  private readonly clients = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor() {
    // A comment now and then: proxies and idle-socket timeouts leave a quiet stream alone.
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), 15_000);
    this.heartbeat.unref();
  }

  get version(): number {
    return this.current;
  }

  get problems(): readonly Problem[] {
    return this.shown;
  }

  /** A new version: open pages reload. */
  update(problems: Problem[]): void {
    this.current++;
    this.shown = problems;
    this.write(versionEvent(this.current));
  }

  /** A page's stream: the current version at once, then every new one. */
  follow(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    // A page that loses its stream (the preview restarted) reconnects after half a second.
    response.write(`retry: 500\n${versionEvent(this.current)}`);
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  /** Ends every stream (the server closes: it would wait for them otherwise). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private write(text: string): void {
    for (const client of this.clients) client.write(text);
  }
}

const versionEvent = (version: number) => `event: version\ndata: ${version}\n\n`;
