import { request } from 'node:http';
import { seedContent } from './content-fixture.js';
import { apiCall } from './lib.js';

/**
 * What a browser sends for a page: bench/run.ts's `page` target and the answer its ceiling
 * replays (bench/page-ceiling.ts) are both read with these headers.
 */
export const PAGE_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

/** Headers of a connection or of the moment, not of the answer: the ceiling sends its own. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'content-length']);

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as sent (still compressed when it was), base64. */
  body: string;
}

/**
 * The page of the `page` target: the 220-page space of bench:content shown by the GET's variant
 * of the (already published) `bench` site, at `section-7/topic-5`. The variant's settings are
 * the GET's, so its customization body does not change. Answers the page's URL.
 */
export async function seedPage(base: string, getUrl: string): Promise<string> {
  const [, , , , , , , variant = ''] = new URL(getUrl).pathname.split('/');
  const siteBase = new URL(getUrl).pathname.replace(/\/site-spaces\/.*$/, '');
  const content = await seedContent(base, getUrl);
  const shown = await apiCall(base, 'PATCH', `${siteBase}/site-spaces/${variant}`, {
    spaceId: content.space,
  });
  const prefix = shown.default === true ? '' : `${String(shown.path)}/`;
  return `${base}/s/bench/${prefix}section-7/topic-5`;
}

/** The page's answer as Livery sends it, bytes untouched (fetch would decompress them). */
export function recordAnswer(url: string): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { headers: PAGE_HEADERS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (!PER_RESPONSE.has(name) && value !== undefined) headers[name] = String(value);
        }
        if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
        resolve({
          status: response.statusCode ?? 0,
          headers,
          body: Buffer.concat(chunks).toString('base64'),
        });
      });
    })
      .on('error', reject)
      .end();
  });
}
