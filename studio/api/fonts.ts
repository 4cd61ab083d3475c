/**
 * The organization's custom fonts (docs/customization.md, "Custom fonts"), through the public API
 * as a script would: the file uploaded to the URL generateStorageUploadURL hands out (kind
 * `customization_font`), then createCustomFont with its storage key.
 */
import { ApiError, api } from './client';
import type { List } from './sites';

export interface FontDefinition {
  id: string;
  custom: boolean;
  fontFamily: string;
  fontFaces: { weight: number; sources: { url: string; format?: 'woff2' | 'woff' }[] }[];
}
export interface CustomFont extends FontDefinition {
  permissions: { edit: boolean };
}

const fonts = (organizationId: string) => `/v1/orgs/${encodeURIComponent(organizationId)}/fonts`;

export const listCustomFonts = async (organizationId: string) =>
  (await api.get<List<CustomFont>>(fonts(organizationId))).body.items;

/** The definition a site's font setting takes: the font without its `permissions`. */
export const definitionOf = ({ permissions: _, ...definition }: CustomFont): FontDefinition =>
  definition;

/** Media types by extension: a browser may give a font file no type at all. */
const TYPES: Record<string, string> = {
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

export const FONT_ACCEPT = '.woff2,.woff,.ttf,.otf';

/** Uploads a font file; answers its storage key. */
export async function uploadFontFile(organizationId: string, file: File): Promise<string> {
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const type = TYPES[extension] ?? file.type;
  const signed = await api.post<{ url: string; key: string }>(
    `/v1/orgs/${encodeURIComponent(organizationId)}/storage/upload`,
    { file: { name: file.name, type, size: file.size }, kind: 'customization_font' },
  );
  // The signed URL is the credential: no cookie, no CSRF token (it may be another origin).
  const put = await fetch(signed.body.url, {
    method: 'PUT',
    headers: { 'content-type': type },
    body: file,
  });
  if (!put.ok) {
    let message = `${put.status} ${put.statusText}`;
    try {
      const envelope = (await put.json()) as { error?: { message?: string } };
      if (typeof envelope.error?.message === 'string') message = envelope.error.message;
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiError(put.status, message, undefined, undefined);
  }
  return signed.body.key;
}

/** An uploaded file as a new font family of one regular (400) face. */
export const createCustomFont = async (organizationId: string, fontFamily: string, key: string) =>
  (
    await api.put<CustomFont>(fonts(organizationId), {
      fontFamily,
      fontFaces: [{ weight: 400, storageKey: key }],
    })
  ).body;
