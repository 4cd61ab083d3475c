import { BoundedCache } from '../../bounded-cache.js';
import { notFound } from '../../errors.js';
import type { RevisionAssets } from '../content/page-table.js';
import type { Revision } from '../content/storage/revisions.js';
import type { FilesRepository, StoredFile, StoredReusableContent } from './repository.js';

/** GitBook's RevisionFile. */
export interface RevisionFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
  git?: { oid: string; path: string };
}

/**
 * A revision's files and reusable contents (docs/git-sync.md, "Files"): GitBook's records of
 * them, and what page bodies need (RevisionAssets). Files are served by the published site at
 * `{PUBLIC_URL}@livery/files/{hash}/{name}`: the address names the bytes, so it never changes
 * meaning and is cached for a year.
 */
export class FilesService {
  private readonly assets = new BoundedCache<RevisionAssets>(16 * 1024 * 1024);

  constructor(
    private readonly repo: FilesRepository,
    private readonly publicUrl: string,
  ) {}

  files(revision: Revision): Promise<readonly StoredFile[]> {
    return this.repo.files(revision.spaceId, revision.files);
  }

  reusableContents(revision: Revision): Promise<readonly StoredReusableContent[]> {
    return this.repo.reusableContents(revision.spaceId, revision.reusableContents);
  }

  /** A file's absolute address (the API's `downloadURL`). */
  urlOf(file: Pick<StoredFile, 'hash' | 'name'>): string {
    return `${this.publicUrl}@livery/files/${file.hash}/${encodeURIComponent(file.name)}`;
  }

  /** Its address on the published site's own origin (`/s/@livery/files/…`), for page bodies. */
  private siteUrlOf(file: Pick<StoredFile, 'hash' | 'name'>): string {
    return `${new URL(this.publicUrl).pathname}@livery/files/${file.hash}/${encodeURIComponent(file.name)}`;
  }

  present(file: StoredFile): RevisionFile {
    return {
      id: file.id,
      name: file.name,
      contentType: file.contentType,
      downloadURL: this.urlOf(file),
      size: file.size,
      ...(file.width === undefined || file.height === undefined
        ? {}
        : { dimensions: { width: file.width, height: file.height } }),
      ...(file.oid === undefined || file.gitPath === undefined
        ? {}
        : { git: { oid: file.oid, path: file.gitPath } }),
    };
  }

  presentReusable(item: StoredReusableContent) {
    return {
      id: item.id,
      title: item.title,
      document: item.id,
      ...(item.oid === undefined || item.gitPath === undefined
        ? {}
        : { git: { oid: item.oid, path: item.gitPath } }),
    };
  }

  async file(revision: Revision, fileId: string): Promise<RevisionFile> {
    const found = (await this.files(revision)).find((f) => f.id === fileId);
    if (found === undefined) throw notFound('file', fileId);
    return this.present(found);
  }

  async reusableContent(revision: Revision, id: string): Promise<StoredReusableContent> {
    const found = (await this.reusableContents(revision)).find((r) => r.id === id);
    if (found === undefined) throw notFound('reusable content', id);
    return found;
  }

  /** What the revision's page bodies need of its files and includes; undefined when none. */
  async assetsOf(revision: Revision): Promise<RevisionAssets | undefined> {
    if (revision.files === undefined && revision.reusableContents === undefined) return undefined;
    const kept = this.assets.get(revision.id);
    if (kept !== undefined) return kept;
    const files = await this.files(revision);
    const includes = await this.reusableContents(revision);
    const assets: RevisionAssets = {
      files: files.map((f) => [
        f.id,
        f.gitPath ?? f.path,
        this.siteUrlOf(f),
        f.name,
        f.contentType,
        f.size,
      ]),
      includes: includes.map((r) => [r.id, r.gitPath ?? r.path, r.title, r.markdown]),
    };
    const bytes = files.length * 200 + includes.reduce((n, r) => n + r.markdown.length, 0);
    this.assets.set(revision.id, assets, bytes);
    return assets;
  }

  blob(hash: string): Promise<Buffer | undefined> {
    return this.repo.blob(hash);
  }
}
