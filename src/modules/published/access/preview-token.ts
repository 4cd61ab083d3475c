import type { ServerKey } from '../../../server-key.js';

/** What the server key signs a publishing preview for (src/server-key.ts). */
export const PUBLISHING_PREVIEW_PURPOSE = 'site-publishing-preview';
/** How long a publishing preview URL opens its site: one hour, as GitBook says. */
export const PREVIEW_SECONDS = 3600;
/** The query parameter that carries it (docs/sites.md, "Publishing previews"). */
export const PREVIEW_PARAMETER = 'preview';

type Signer = Pick<ServerKey, 'sign' | 'verify'>;

const TOKEN = /^([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * A publishing preview's credential: `{expiry}.{signature}`, the expiry in Unix seconds and the
 * signature of the site's id with it. Nothing is stored: the signature says which site and until
 * when, and changing the server key ends every preview.
 */
export function previewToken(key: Signer, siteId: string, expiresAt: number): string {
  return `${expiresAt}.${key.sign(PUBLISHING_PREVIEW_PURPOSE, `${siteId}.${expiresAt}`)}`;
}

/** Whether `token` opens `siteId` at `now` (Unix seconds): signed for it, and not expired. */
export function previewTokenOpens(key: Signer, siteId: string, token: string, now: number) {
  const match = TOKEN.exec(token);
  const expiry = match?.[1];
  const signature = match?.[2];
  if (expiry === undefined || signature === undefined || Number(expiry) <= now) return false;
  return key.verify(PUBLISHING_PREVIEW_PURPOSE, `${siteId}.${expiry}`, signature);
}
