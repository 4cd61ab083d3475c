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

export function signTicket(key: ServerKey, ticket: PdfTicket): string {
  const payload = Buffer.from(JSON.stringify(ticket), 'utf8').toString('base64url');
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
  let ticket: PdfTicket;
  try {
    ticket = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PdfTicket;
  } catch {
    return 'invalid';
  }
  if (typeof ticket.expires !== 'number' || typeof ticket.spaceId !== 'string') return 'invalid';
  return ticket.expires <= nowSeconds ? 'expired' : ticket;
}
