import { createHash } from 'node:crypto';
import type { StorageObjectRow, StorageUploadRow } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ServerKey } from '../../server-key.js';
import { contentTypeOf } from '../files/file-types.js';
import {
  canonicalType,
  contentProblem,
  KIND_POLICY,
  servedName,
  type UploadKind,
} from './kinds.js';
import type { StorageRepository } from './repository.js';

/** How long an upload URL takes its upload (GitBook is silent; docs/uploads.md). */
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;
/** What the server key signs an upload URL's id for (src/server-key.ts). */
export const UPLOAD_PURPOSE = 'storage-upload';
/** Where upload URLs live below PUBLIC_URL (and below `/s/`, where Livery serves it). */
export const UPLOAD_SEGMENT = '@livery/uploads';

const TOKEN = /^([A-Za-z0-9]{20})\.([A-Za-z0-9_-]{43})$/;
/** Longest name once percent-encoded: it is a path segment of the file's URL (maxParamLength 256). */
const MAX_ENCODED_NAME = 240;

/** A stored file: the fonts module and others take it by key (GitBook's StorageFileKey). */
export interface StoredObject {
  key: string;
  organizationId: string;
  kind: UploadKind;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes, base64url: their key in the shared file store. */
  hash: string;
  /** Its absolute public download URL (`{PUBLIC_URL}@livery/files/{hash}/{name}`). */
  url: string;
}

/** GitBook 0.202's StorageUploadURL. */
export interface StorageUploadUrl {
  object: 'storage-signed-url';
  url: string;
  key: string;
}

export interface UploadRequest {
  file: { name: string; type: string; size: number };
  kind: UploadKind;
}

const gone = (message: string) => new AppError(410, message);

/**
 * Uploads (docs/uploads.md): a signed, expiring, single-use URL per file, which takes the bytes
 * with PUT; the file is checked by its content and stored content-addressed in the file store
 * revision files use, and served from there (files/routes.ts) for a year.
 */
export class StorageService {
  private lastPrune = 0;

  constructor(
    private readonly repo: StorageRepository,
    private readonly deps: {
      key: ServerKey;
      /** PUBLIC_URL, ending with `/`. */
      publicUrl: string;
      /** A file's absolute URL (FilesService.urlOf). */
      fileUrl: (file: { hash: string; name: string }) => string;
    },
  ) {}

  /** generateStorageUploadURL: checks what the file says it is, and hands out its URL. */
  async createUploadUrl(
    organizationId: string,
    input: UploadRequest,
    createdBy: string | null,
  ): Promise<StorageUploadUrl> {
    const { file, kind } = input;
    const policy = KIND_POLICY[kind];
    const type = canonicalType(file.type);
    if (!policy.types.includes(type)) {
      throw badRequest(
        `file.type: ${JSON.stringify(file.type)} is not accepted for kind ${kind}; accepted: ${policy.types.join(', ')}`,
      );
    }
    if (!Number.isInteger(file.size) || file.size < 1 || file.size > policy.maxBytes) {
      throw badRequest(
        `file.size: must be a whole number of bytes from 1 to ${policy.maxBytes} for kind ${kind}; got ${file.size}`,
      );
    }
    checkName(file.name, type);
    const at = new Date();
    const id = newId();
    const row: StorageUploadRow = {
      id,
      key: `orgs/${organizationId}/${kind}/${newId()}`,
      organization_id: organizationId,
      kind,
      name: file.name,
      content_type: type,
      size: file.size,
      created_by: createdBy,
      created_at: at.toISOString(),
      expires_at: new Date(at.getTime() + UPLOAD_URL_TTL_MS).toISOString(),
      used_at: null,
    };
    await this.repo.insertUpload(row);
    await this.pruneNowAndThen(at);
    const token = `${id}.${this.deps.key.sign(UPLOAD_PURPOSE, id)}`;
    return {
      object: 'storage-signed-url',
      url: `${this.deps.publicUrl}${UPLOAD_SEGMENT}/${token}`,
      key: row.key,
    };
  }

  /**
   * The upload a URL's token names, if it may still take one with this Content-Type and
   * Content-Length (checked before the body is read). 403: not a URL Livery signed; 410: used
   * or expired; 400: the headers do not match what the URL was made for.
   */
  async begin(
    token: string,
    contentType: string | undefined,
    contentLength: number | undefined,
  ): Promise<StorageUploadRow> {
    const [, id, signature] = TOKEN.exec(token) ?? [];
    if (
      id === undefined ||
      signature === undefined ||
      !this.deps.key.verify(UPLOAD_PURPOSE, id, signature)
    ) {
      throw new AppError(403, 'This upload URL is not one Livery signed (altered or truncated)');
    }
    const row = await this.repo.upload(id);
    this.checkUsable(row, new Date());
    if (contentType === undefined || canonicalType(contentType) !== row.content_type) {
      throw badRequest(
        `Content-Type: must be ${row.content_type}, the file.type this upload URL was made for; got ${contentType === undefined ? 'none' : JSON.stringify(contentType)}`,
      );
    }
    if (contentLength !== undefined && contentLength !== row.size) {
      throw badRequest(
        `Content-Length: ${contentLength} bytes, but this upload URL was made for file.size ${row.size}`,
      );
    }
    return row;
  }

  /** Checks the bytes and stores them; the URL is used once this answers. */
  async finish(upload: StorageUploadRow, data: Buffer): Promise<StoredObject> {
    if (data.length !== upload.size) {
      const got = data.length > upload.size ? 'is larger than' : `has ${data.length} bytes, not`;
      throw badRequest(
        `The body ${got} the file.size this upload URL was made for (${upload.size})`,
      );
    }
    const problem = contentProblem(upload.content_type, data);
    if (problem !== undefined) throw badRequest(problem);
    const at = new Date();
    const object: StorageObjectRow = {
      key: upload.key,
      organization_id: upload.organization_id,
      kind: upload.kind,
      name: servedName(upload.name, upload.content_type, contentTypeOf),
      content_type: upload.content_type,
      size: data.length,
      hash: createHash('sha256').update(data).digest('base64url'),
      created_by: upload.created_by,
      created_at: at.toISOString(),
    };
    if (!(await this.repo.store(upload, object, data, at.toISOString()))) {
      this.checkUsable(await this.repo.upload(upload.id), at);
    }
    return this.present(object);
  }

  /** A stored object of the organization by its key (GitBook's StorageFileKey). */
  async objectOf(organizationId: string, key: string): Promise<StoredObject | undefined> {
    const row = await this.repo.object(organizationId, key);
    return row === undefined ? undefined : this.present(row);
  }

  private present(row: StorageObjectRow): StoredObject {
    return {
      key: row.key,
      organizationId: row.organization_id,
      kind: row.kind as UploadKind,
      name: row.name,
      contentType: row.content_type,
      size: row.size,
      hash: row.hash,
      url: this.deps.fileUrl(row),
    };
  }

  private checkUsable(
    upload: StorageUploadRow | undefined,
    at: Date,
  ): asserts upload is StorageUploadRow {
    const again = 'ask for a new one with generateStorageUploadURL';
    if (upload === undefined) throw gone(`This upload URL expired; ${again}`);
    if (upload.used_at !== null) {
      throw gone(
        `This upload URL was used at ${upload.used_at}; an upload URL takes one upload: ${again}`,
      );
    }
    if (upload.expires_at <= at.toISOString()) {
      throw gone(`This upload URL expired at ${upload.expires_at}; ${again}`);
    }
  }

  /** Old URLs' rows go, at most once a minute per process. */
  private async pruneNowAndThen(at: Date): Promise<void> {
    if (at.getTime() - this.lastPrune < 60_000) return;
    this.lastPrune = at.getTime();
    await this.repo.pruneUploads(at);
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const UNSERVABLE = /[\u0000-\u001f\u007f/\\]/;

/** A name the file can be served under: a path segment, neither `.` nor `..`, of sane length. */
function checkName(name: string, type: string): void {
  if (name.trim() === '' || UNSERVABLE.test(name) || name === '.' || name === '..') {
    throw badRequest(
      'file.name: must be a file name (not empty, no slash, backslash or control character, not . or ..)',
    );
  }
  if (encodeURIComponent(servedName(name, type, contentTypeOf)).length > MAX_ENCODED_NAME) {
    throw badRequest(
      `file.name: too long; at most ${MAX_ENCODED_NAME} characters once percent-encoded in the file's URL`,
    );
  }
}
