/**
 * The organization's custom fonts (docs/customization.md, "Custom fonts"), through the public API
 * as a script would: the file uploaded to the URL generateStorageUploadURL hands out (kind
 * `customization_font`), then createCustomFont with its storage key.
 */
import { api } from './client';
import type { List } from './sites';
import { uploadFile } from './uploads.js';

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

export const FONT_ACCEPT = '.woff2,.woff,.ttf,.otf';

/** Uploads a font file (generateStorageUploadURL, then PUT: uploads.ts); answers its storage key. */
export const uploadFontFile = async (organizationId: string, file: File): Promise<string> =>
  (await uploadFile(organizationId, file, 'customization_font')).key;

/** An uploaded file as a new font family of one regular (400) face. */
export const createCustomFont = async (organizationId: string, fontFamily: string, key: string) =>
  (
    await api.put<CustomFont>(fonts(organizationId), {
      fontFamily,
      fontFaces: [{ weight: 400, storageKey: key }],
    })
  ).body;
