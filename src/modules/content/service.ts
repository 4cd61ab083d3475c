import { BoundedCache } from '../../bounded-cache.js';
import { AppError, notFound } from '../../errors.js';
import type { Urls } from '../../urls.js';
import { TaskFailed, TaskTimedOut, type Workers } from '../../workers/index.js';
import type { FilesService } from '../files/service.js';
import type { SpacesService } from '../spaces/service.js';
import { noticeDocumentJson } from './document-notice.js';
import { layoutOf } from './page-layout.js';
import { pageTableOf } from './page-table.js';
import type { ContentRepository, Revision } from './repository.js';
import { findById, findByPath, type StoredPage, type Tree } from './tree.js';

/** Where a read takes its pages from: the space's current revision, a revision, a change request. */
export type ContentSource =
  | { kind: 'space' }
  | { kind: 'revision'; revisionId: string }
  | { kind: 'change-request'; changeRequest: string };

export type Format = 'document' | 'markdown' | undefined;

export type PresentedPage = Record<string, unknown> & { id: string; pages?: PresentedPage[] };

/** Livery has no tags (GitBook's RevisionTag): revisions and documents carry none. */
const NO_TAGS: readonly never[] = Object.freeze([]);

/** Rendered page trees kept, by the size of their text. */
const RENDERED_BYTES = 64 * 1024 * 1024;
/** Page documents kept (JSON text), by their size: GitBook's renderer reads one per page view. */
const DOCUMENT_BYTES = 32 * 1024 * 1024;
/** A document shown as its text (past its budget) is made again after this long. */
const RETRY_AS_TEXT_MS = 60_000;

/** Reads of a space's content (docs/content.md): revisions, page trees, pages by id and path. */
export class ContentService {
  private readonly rendered = new BoundedCache<string>(RENDERED_BYTES);
  private readonly documents = new BoundedCache<{ json: Buffer; retryAt?: number }>(DOCUMENT_BYTES);

  constructor(
    private readonly repo: ContentRepository,
    private readonly spaces: SpacesService,
    private readonly urls: Urls,
    private readonly workers: Workers,
    private readonly files: FilesService,
  ) {}

  /** The revision a read names, checked to belong to the space (else 404). */
  async revisionFor(spaceId: string, source: ContentSource): Promise<Revision> {
    let id: string;
    if (source.kind === 'space') id = await this.spaces.currentRevisionId(spaceId);
    else if (source.kind === 'revision') id = source.revisionId;
    else {
      const request = await this.repo.findChangeRequest(spaceId, source.changeRequest);
      if (request === undefined) throw notFound('change request', source.changeRequest);
      id = request.revision_id;
    }
    const revision = await this.repo.revision(id);
    if (revision === undefined || revision.spaceId !== spaceId) throw notFound('revision', id);
    return revision;
  }

  /** `{"pages": [...]}` as JSON text (see pagesJson). */
  async listPages(spaceId: string, source: ContentSource): Promise<string> {
    const revision = await this.revisionFor(spaceId, source);
    return `{"pages":${this.pagesJson(spaceId, revision)}}`;
  }

  /** A page; with `format: document`, as JSON text (its document is made as text). */
  async pageById(spaceId: string, source: ContentSource, pageId: string, format: Format) {
    const revision = await this.revisionFor(spaceId, source);
    const found = findById(revision.pages, pageId);
    if (found === undefined) throw notFound('page', pageId);
    return this.pageAnswer(spaceId, revision, found.page, found.path, format);
  }

  /** A document page's body as GitBook's JSONDocument, as JSON bytes; groups and links have none (404). */
  async pageDocument(spaceId: string, source: ContentSource, pageId: string): Promise<Buffer> {
    const revision = await this.revisionFor(spaceId, source);
    const found = findById(revision.pages, pageId);
    if (found === undefined) throw notFound('page', pageId);
    if (found.page.type !== 'document') {
      throw new AppError(
        404,
        `Page ${JSON.stringify(pageId)} is a ${found.page.type}: it has no document`,
      );
    }
    return this.documentJson(revision, found.page, found.path);
  }

  /** A document or group by its path (decoded: `a/b`); 404 naming the path when none. */
  async pageByPath(spaceId: string, source: ContentSource, path: string, format: Format) {
    const revision = await this.revisionFor(spaceId, source);
    const found = findByPath(revision.pages, path);
    if (found === undefined) {
      throw new AppError(404, `No page found at path ${JSON.stringify(path)} in this revision`);
    }
    return this.pageAnswer(spaceId, revision, found.page, found.path, format);
  }

  private async pageAnswer(
    spaceId: string,
    revision: Revision,
    page: StoredPage,
    path: string,
    format: Format,
  ): Promise<PresentedPage | Buffer> {
    const presented = this.presentPage(spaceId, page, parentPathOf(path), format);
    if (format !== 'document' || page.type !== 'document') return presented;
    const document = await this.documentJson(revision, page, path);
    const head = `${JSON.stringify(presented).slice(0, -1)},"document":`;
    return Buffer.concat([Buffer.from(head), document, Buffer.from('}')]);
  }

  /**
   * A document page's body as GitBook's document (JSON text), made on a worker thread
   * (page-document.ts) and kept: revisions never change. Past RENDER_BUDGET_MS (the published
   * page's budget, so that GitBook's renderer and Livery's site show the same), or should its
   * thread fail, the answer is the page's plain text with a notice, never an error.
   */
  private async documentJson(revision: Revision, page: StoredPage, path: string): Promise<Buffer> {
    const key = `${revision.id}\u0000${page.id}`;
    const kept = this.documents.get(key);
    if (kept !== undefined && (kept.retryAt === undefined || kept.retryAt > Date.now())) {
      return kept.json;
    }
    const markdown = page.markdown ?? '';
    const assets = await this.files.assetsOf(revision);
    let bytes: Uint8Array;
    try {
      bytes = await this.workers.render.run(
        'pageDocument',
        {
          markdown,
          title: page.title,
          path,
          ...(page.git === undefined ? {} : { file: page.git.path }),
          pages: pageTableOf(revision.id, revision.pages, assets),
        },
        this.workers.config.renderBudgetMs,
      );
    } catch (error) {
      if (!(error instanceof TaskTimedOut || error instanceof TaskFailed)) throw error;
      const why = error instanceof TaskTimedOut ? 'time' : 'failure';
      const json = Buffer.from(noticeDocumentJson(markdown, why));
      // Tried again after a while (the machine may only have been busy); meanwhile kept.
      this.documents.set(key, { json, retryAt: Date.now() + RETRY_AS_TEXT_MS }, json.length);
      return json;
    }
    const json = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.documents.set(key, { json }, json.length);
    return json;
  }

  /** A reusable content's body as GitBook's document (JSON bytes), read from its own file. */
  async reusableDocumentJson(
    revision: Revision,
    item: { id: string; title: string; markdown: string; gitPath?: string },
  ): Promise<Buffer> {
    const key = `${revision.id}\u0000reusable\u0000${item.id}`;
    const kept = this.documents.get(key);
    if (kept !== undefined) return kept.json;
    const assets = await this.files.assetsOf(revision);
    const bytes = await this.workers.render.run(
      'pageDocument',
      {
        markdown: item.markdown,
        title: '',
        path: '',
        ...(item.gitPath === undefined ? {} : { file: item.gitPath }),
        pages: pageTableOf(revision.id, revision.pages, assets),
      },
      this.workers.config.renderBudgetMs,
    );
    const json = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.documents.set(key, { json }, json.length);
    return json;
  }

  /** GitBook's Revision as JSON text, its pages rendered once (see pagesJson). */
  async revisionJson(
    spaceId: string,
    revision: Revision,
    mergedFrom?: Record<string, unknown>,
  ): Promise<string> {
    const files = (await this.files.files(revision)).map((f) => this.files.present(f));
    const reusable = (await this.files.reusableContents(revision)).map((r) =>
      this.files.presentReusable(r),
    );
    const rest = JSON.stringify({
      files,
      reusableContents: reusable,
      variables: {},
      tags: NO_TAGS,
      createdAt: revision.createdAt,
      ...(revision.git === undefined ? {} : { git: revision.git }),
      urls: { app: `${this.urls.space(spaceId)}/revisions/${revision.id}` },
      ...(mergedFrom === undefined ? {} : { mergedFrom }),
    });
    const head = JSON.stringify({
      object: 'revision',
      id: revision.id,
      type: revision.type,
      parents: revision.parents,
    });
    return `${head.slice(0, -1)},"pages":${this.pagesJson(spaceId, revision)},${rest.slice(1)}`;
  }

  presentTree(spaceId: string, pages: Tree, parentPath: string): PresentedPage[] {
    return pages.map((page) => this.presentPage(spaceId, page, parentPath, undefined));
  }

  /**
   * GitBook's RevisionPage for a stored page; `format: markdown` adds the body (a document is
   * added by pageAnswer, as text); `pages: []` without children.
   */
  presentPage(
    spaceId: string,
    page: StoredPage,
    parentPath: string,
    format: Format,
    withChildren = true,
  ): PresentedPage {
    // Built field by field rather than with spreads: trees of hundreds of pages are presented
    // whole, and this is most of their cost.
    const presented: PresentedPage = { id: page.id, title: page.title };
    if (page.emoji !== undefined) presented.emoji = page.emoji;
    if (page.icon !== undefined) presented.icon = page.icon;
    presented.createdAt = page.createdAt;
    presented.updatedAt = page.updatedAt;
    if (page.type === 'link') {
      const target = page.target ?? { kind: 'url', url: '' };
      presented.kind = 'link';
      presented.type = 'link';
      presented.target = target;
      if (target.kind === 'url' && target.url !== undefined) presented.href = target.url;
      if (page.hidden) presented.hidden = true;
      return presented;
    }
    const path = parentPath === '' ? (page.slug ?? '') : `${parentPath}/${page.slug ?? ''}`;
    presented.kind = page.type === 'group' ? 'group' : 'sheet';
    presented.type = page.type;
    if (page.type === 'document') {
      presented.urls = { app: `${this.urls.space(spaceId)}/content/page/${page.id}` };
    }
    presented.slug = page.slug;
    presented.path = path;
    if (page.description !== undefined) presented.description = page.description;
    if (page.hidden) presented.hidden = true;
    if (page.type === 'document') {
      // An imported page's front matter sets some layout options (docs/git-sync.md).
      presented.layout = layoutOf(page);
      if (page.cover !== undefined) presented.cover = page.cover;
      if (page.noIndex !== undefined) presented.noIndex = page.noIndex;
      if (page.noRobotsIndex !== undefined) presented.noRobotsIndex = page.noRobotsIndex;
      presented.tags = NO_TAGS;
      presented.documentId = page.id;
      if (page.git !== undefined) presented.git = page.git;
      if (page.linkTitle !== undefined) presented.linkTitle = page.linkTitle;
      if (format === 'markdown') presented.markdown = page.markdown ?? '';
    }
    presented.pages = withChildren ? this.presentTree(spaceId, page.pages, path) : [];
    return presented;
  }

  /**
   * A revision's page tree as JSON text. Revisions never change, so the text is rendered once
   * per revision and kept (bounded by size): page trees are the largest answers Livery gives.
   */
  pagesJson(spaceId: string, revision: Revision): string {
    const key = `${spaceId}\u0000${revision.id}`;
    const cached = this.rendered.get(key);
    if (cached !== undefined) return cached;
    const json = JSON.stringify(this.presentTree(spaceId, revision.pages, ''));
    this.rendered.set(key, json, json.length);
    return json;
  }
}

function parentPathOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
