import type { CustomFontRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { newId, now } from '../../ids.js';
import { roleMayCall } from '../access/record-permissions.js';
import type { Actor } from '../audit/actor.js';
import type { AuditEntry } from '../audit/record.js';
import {
  applyChanges,
  type FaceChange,
  formatOf,
  refuseRepeatedWeights,
  requireRegular,
  type StoredFace,
  sortFaces,
  unquotedCssSafe,
} from './faces.js';
import type { CustomFontsRepository } from './repository.js';
import type { CreateCustomFont, CustomFont, UpdateCustomFont } from './schemas.js';

/** The storage kind of font files (GitBook's StorageUploadKind). */
export const FONT_KIND = 'customization_font';

/** Livery's bound on an organization's fonts (docs/customization.md, "Custom fonts"). */
export const MAX_FONTS = 100;

/**
 * What the fonts need of an uploaded file (modules/storage's StoredObject): the storage checked
 * its content against its kind at upload, and serves it at `url`.
 */
export interface StoredFile {
  kind: string;
  contentType: string;
  url: string;
}

/** The organization exists and the caller is a member: the `/v1` hooks checked (access/auth.ts). */
export interface CustomFontsDeps {
  /** The organization's uploaded file of that key, or undefined. */
  objectOf: (organizationId: string, key: string) => Promise<StoredFile | undefined>;
}

/** The caller: who they are and their role in the organization (for `permissions.edit`). */
export interface Caller extends Actor {
  role: string;
}

/**
 * Custom fonts (GitBook 0.202's custom-fonts; docs/customization.md, "Custom fonts"): an
 * organization's font families, each a set of uploaded files by weight, answered as the font
 * definition a site's `styling.font`, `monospaceFont` or `headingFont` takes.
 */
export class CustomFontsService {
  constructor(
    private readonly repo: CustomFontsRepository,
    private readonly deps: CustomFontsDeps,
  ) {}

  async list(
    organizationId: string,
    caller: Caller,
  ): Promise<{ items: CustomFont[]; count: number }> {
    const items = (await this.repo.list(organizationId)).map((row) => present(row, caller.role));
    return { items, count: items.length };
  }

  async get(organizationId: string, fontId: string, caller: Caller): Promise<CustomFont> {
    return present(await this.require(organizationId, fontId), caller.role);
  }

  /** createCustomFont: 412 without a weight 400 face; 400 naming a key that is no font file. */
  async create(
    organizationId: string,
    input: CreateCustomFont,
    caller: Caller,
  ): Promise<CustomFont> {
    refuseRepeatedWeights(input.fontFaces);
    requireRegular(input.fontFaces.map((face) => face.weight));
    const faces = sortFaces(await this.resolve(organizationId, input.fontFaces));
    if ((await this.repo.count(organizationId)) >= MAX_FONTS) {
      throw conflict(
        `organizationId: the organization has ${MAX_FONTS} custom fonts, Livery's limit; delete one first`,
      );
    }
    const at = now();
    const row: CustomFontRow = {
      id: newId('font_'),
      organization_id: organizationId,
      font_family: input.fontFamily,
      faces: JSON.stringify(faces),
      created_at: at,
      updated_at: null,
    };
    await this.repo.save(row, true, entry(row, faces, 'created', caller, at));
    return present(row, caller.role);
  }

  /**
   * updateCustomFont: the family renamed, faces added or replaced by weight, `storageKey: null`
   * removing one; 412 when no weight 400 face would remain. Sites keep the definition they were
   * given (docs/customization.md, "Custom fonts").
   */
  async update(
    organizationId: string,
    fontId: string,
    input: UpdateCustomFont,
    caller: Caller,
  ): Promise<CustomFont> {
    const old = await this.require(organizationId, fontId);
    const changes = input.fontFaces ?? [];
    refuseRepeatedWeights(changes);
    const resolved = await this.resolve(
      organizationId,
      changes.filter(
        (change): change is FaceChange & { storageKey: string } => change.storageKey !== null,
      ),
      changes,
    );
    const removed = changes
      .filter((change) => change.storageKey === null)
      .map((change) => ({ weight: change.weight, storageKey: null }));
    const faces = applyChanges(facesOf(old), [...resolved, ...removed]);
    requireRegular(faces.map((face) => face.weight));
    const at = now();
    const row: CustomFontRow = {
      ...old,
      font_family: input.fontFamily ?? old.font_family,
      faces: JSON.stringify(faces),
      updated_at: at,
    };
    await this.repo.save(row, false, entry(row, faces, 'updated', caller, at));
    return present(row, caller.role);
  }

  /**
   * deleteCustomFont: true when it existed (205), false when it did not (204); 409 naming the
   * sites whose customization uses it.
   */
  async delete(organizationId: string, fontId: string, caller: Caller): Promise<boolean> {
    const old = await this.repo.find(organizationId, fontId);
    if (old === undefined) return false;
    const using = await this.repo.sitesUsing(organizationId, fontId);
    if (using.length > 0) {
      const names = using.map((site) => `${JSON.stringify(site.title)} (${site.id})`).join(', ');
      throw conflict(
        `fontId: the font ${JSON.stringify(old.font_family)} is used by ${using.length === 1 ? 'the site' : 'the sites'} ${names}; choose another font there first`,
      );
    }
    return this.repo.remove(
      organizationId,
      fontId,
      entry(old, facesOf(old), 'deleted', caller, now()),
    );
  }

  private async require(organizationId: string, fontId: string): Promise<CustomFontRow> {
    const row = await this.repo.find(organizationId, fontId);
    if (row === undefined) throw notFound('custom font', fontId);
    return row;
  }

  /**
   * The stored faces of the given ones: each key must name a font file of the organization
   * (400 naming the face's field otherwise). `all` is the body's list, for the field's index.
   */
  private async resolve(
    organizationId: string,
    faces: readonly { weight: number; storageKey: string }[],
    all: readonly FaceChange[] = faces,
  ): Promise<StoredFace[]> {
    const resolved: StoredFace[] = [];
    for (const face of faces) {
      const field = `body.fontFaces[${all.indexOf(face)}].storageKey`;
      const file = await this.deps.objectOf(organizationId, face.storageKey);
      if (file === undefined) {
        throw badRequest(
          `${field}: no file ${JSON.stringify(face.storageKey)} was uploaded to this organization`,
        );
      }
      if (file.kind !== FONT_KIND) {
        throw badRequest(
          `${field}: ${JSON.stringify(face.storageKey)} is not a font file (uploaded as kind ${file.kind}; fonts are uploaded as kind ${FONT_KIND})`,
        );
      }
      const format = formatOf(file.contentType);
      resolved.push({
        weight: face.weight,
        storageKey: face.storageKey,
        url: unquotedCssSafe(file.url),
        ...(format === undefined ? {} : { format }),
      });
    }
    return resolved;
  }
}

const facesOf = (row: CustomFontRow): StoredFace[] => JSON.parse(row.faces) as StoredFace[];

/** GitBook's CustomizationFontDefinition of a stored font. */
function present(row: CustomFontRow, role: string): CustomFont {
  return {
    id: row.id,
    custom: true,
    fontFamily: row.font_family,
    fontFaces: facesOf(row).map((face) => ({
      weight: face.weight,
      sources: [{ url: face.url, ...(face.format === undefined ? {} : { format: face.format }) }],
    })),
    permissions: { edit: roleMayCall(role, 'updateCustomFont') },
  };
}

function entry(
  row: CustomFontRow,
  faces: StoredFace[],
  what: 'created' | 'updated' | 'deleted',
  actor: Actor,
  at: string,
): AuditEntry {
  return {
    organizationId: row.organization_id,
    actor: { userId: actor.userId, tokenId: actor.tokenId },
    action: `custom-font.${what}`,
    target: { kind: 'custom-font', id: row.id },
    details: { fontFamily: row.font_family, weights: faces.map((face) => face.weight) },
    at,
  };
}
