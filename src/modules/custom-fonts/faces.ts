import { AppError, badRequest } from '../../errors.js';

/**
 * The pure rules of a custom font's faces (docs/customization.md, "Custom fonts"): one face per
 * weight, a regular (400) face always, the changes of an update applied by weight, and which
 * custom fonts a stored customization uses. No storage, no HTTP.
 */

/** A face as stored: the file given for the weight, and its URL and format when it was given. */
export interface StoredFace {
  weight: number;
  storageKey: string;
  url: string;
  format?: 'woff2' | 'woff';
}

/** A face as a request names it; `storageKey: null` (update only) removes the weight. */
export interface FaceChange {
  weight: number;
  storageKey: string | null;
}

export const REGULAR_WEIGHT = 400;

/** 400 naming the second face of a weight given twice in one body. */
export function refuseRepeatedWeights(faces: readonly FaceChange[]): void {
  const seen = new Set<number>();
  for (const [i, face] of faces.entries()) {
    if (seen.has(face.weight)) {
      throw badRequest(
        `body.fontFaces[${i}].weight: weight ${face.weight} is given twice; give one file per weight`,
      );
    }
    seen.add(face.weight);
  }
}

/** GitBook's 412 for a font left without its regular face. */
export function requireRegular(weights: readonly number[]): void {
  if (!weights.includes(REGULAR_WEIGHT)) {
    throw new AppError(
      412,
      'body.fontFaces: a font needs a face of weight 400 (regular); add one, or do not remove it',
    );
  }
}

/**
 * The faces after an update: each change replaces the face of its weight, or adds it, or (null)
 * removes it; the others stay. In weight order.
 */
export function applyChanges(
  current: readonly StoredFace[],
  changes: readonly (StoredFace | { weight: number; storageKey: null })[],
): StoredFace[] {
  const byWeight = new Map(current.map((face) => [face.weight, face]));
  for (const change of changes) {
    if (change.storageKey === null) byWeight.delete(change.weight);
    else byWeight.set(change.weight, change as StoredFace);
  }
  return sortFaces([...byWeight.values()]);
}

export const sortFaces = (faces: StoredFace[]): StoredFace[] =>
  faces.sort((a, b) => a.weight - b.weight);

const FORMATS: Readonly<Record<string, 'woff2' | 'woff'>> = {
  'font/woff2': 'woff2',
  'font/woff': 'woff',
};

/**
 * GitBook's FontSource `format` of a stored file's media type: woff2 or woff. TrueType and
 * OpenType files have none in GitBook's enum, so their sources carry no format and the browser
 * recognizes the file itself.
 */
export function formatOf(contentType: string): 'woff2' | 'woff' | undefined {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  // Own keys only: `constructor` is no media type (not the object's inherited key).
  return Object.hasOwn(FORMATS, type) ? FORMATS[type] : undefined;
}

/**
 * A file's URL as a font source: the characters a CSS `url()` without quotes cannot hold and
 * percent-encoding leaves (`(`, `)`, `'`, `*`…) encoded, so that a file named `Brand (Bold).woff2`
 * also loads through GitBook's renderer, which writes `url(<url>)` unquoted. The server decodes
 * them back to the same name.
 */
export function unquotedCssSafe(url: string): string {
  return url.replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const FONT_FIELDS = ['font', 'monospaceFont', 'headingFont'] as const;

/**
 * The ids of the custom fonts (`custom: true` definitions) a stored customization (a site's
 * settings or a variant's override, as JSON text) uses in its font fields. Text that does not
 * parse uses none.
 */
export function customFontIds(json: string | null): string[] {
  if (json === null) return [];
  let styling: unknown;
  try {
    styling = (JSON.parse(json) as { styling?: unknown } | null)?.styling;
  } catch {
    return [];
  }
  if (typeof styling !== 'object' || styling === null) return [];
  const ids: string[] = [];
  for (const field of FONT_FIELDS) {
    const font = (styling as Record<string, unknown>)[field];
    if (typeof font !== 'object' || font === null) continue;
    const { id, custom } = font as { id?: unknown; custom?: unknown };
    if (custom === true && typeof id === 'string') ids.push(id);
  }
  return ids;
}
