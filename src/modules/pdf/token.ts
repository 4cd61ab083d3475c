import type { ServerKey } from '../../server-key.js';

/**
 * The capability in a PDF's temporary URL (docs/pdf.md): what to print, signed with the server
 * key (HMAC-SHA256) and valid for one hour, as GitBook says of its URLs. Whoever has the URL may
 * download the PDF, without an API token; it names a revision, so the PDF is the same for the
 * whole hour whatever is merged meanwhile.
 */
export interface PdfTicket {
  spaceId: string;
  revisionId: string;
  page?: string;
  only?: boolean;
  /** The site and variant whose look the PDF takes (the published site's "Export as PDF"). */
  siteId?: string;
  siteSpaceId?: string;
  /** Seconds since the epoch after which the URL no longer works. */
  expires: number;
}

export const PDF_URL_SECONDS = 3600;
const PURPOSE = 'pdf-url';

/** The ticket as a JSON array (shorter than an object: the URL stays short). */
const packed = (t: PdfTicket) => [
  t.spaceId,
  t.revisionId,
  t.expires,
  t.page ?? '',
  t.only === true ? 1 : 0,
  t.siteId ?? '',
  t.siteSpaceId ?? '',
];

function unpacked(value: unknown): PdfTicket | undefined {
  if (!Array.isArray(value) || value.length !== 7) return undefined;
  const [spaceId, revisionId, expires, page, only, siteId, siteSpaceId] = value as unknown[];
  if (typeof spaceId !== 'string' || typeof revisionId !== 'string' || typeof expires !== 'number')
    return undefined;
  if (typeof page !== 'string' || typeof siteId !== 'string' || typeof siteSpaceId !== 'string')
    return undefined;
  return {
    spaceId,
    revisionId,
    expires,
    ...(page === '' ? {} : { page }),
    ...(only === 1 ? { only: true } : {}),
    ...(siteId === '' || siteSpaceId === '' ? {} : { siteId, siteSpaceId }),
  };
}

export function signTicket(key: ServerKey, ticket: PdfTicket): string {
  const payload = Buffer.from(JSON.stringify(packed(ticket)), 'utf8').toString('base64url');
  return `${payload}.${key.sign(PURPOSE, payload)}`;
}

/** The ticket of a token, or why it is refused: altered or made elsewhere, or expired. */
export function openTicket(
  key: ServerKey,
  token: string,
  nowSeconds: number,
): PdfTicket | 'invalid' | 'expired' {
  const [payload, signature, extra] = token.split('.');
  if (payload === undefined || signature === undefined || extra !== undefined) return 'invalid';
  if (!key.verify(PURPOSE, payload, signature)) return 'invalid';
  let ticket: PdfTicket | undefined;
  try {
    ticket = unpacked(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    return 'invalid';
  }
  if (ticket === undefined) return 'invalid';
  return ticket.expires <= nowSeconds ? 'expired' : ticket;
}
