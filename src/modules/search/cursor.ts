import { badRequest } from '../../errors.js';

/** Cursors are positions in the ranked results: a later page of a changed site may shift. */
export const encodeOffset = (offset: number) => Buffer.from(`o${offset}`).toString('base64url');

export function decodeOffset(page: string | undefined): number {
  if (page === undefined) return 0;
  const match = /^o(\d{1,9})$/.exec(Buffer.from(page, 'base64url').toString('utf8'));
  if (match === null)
    throw badRequest('querystring.page is not a page cursor returned by this search');
  return Number(match[1]);
}
