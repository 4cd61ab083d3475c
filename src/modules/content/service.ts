import { AppError, notFound } from '../../errors.js';
import type { Urls } from '../../urls.js';
import type { SpacesService } from '../spaces/service.js';
import { markdownToDocument } from './markdown-document.js';
import type { ContentRepository, Revision } from './repository.js';
import { findById, findByPath, joinPath, type StoredPage, type Tree } from './tree.js';

/** Where a read takes its pages from: the space's current revision, a revision, a change request. */
export type ContentSource =
  | { kind: 'space' }
  | { kind: 'revision'; revisionId: string }
  | { kind: 'change-request'; changeRequest: string };

export type Format = 'document' | 'markdown' | undefined;

export type PresentedPage = Record<string, unknown> & { id: string; pages?: PresentedPage[] };

const LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
} as const;

/** Reads of a space's content (docs/content.md): revisions, page trees, pages by id and path. */
export class ContentService {
  constructor(
    private readonly repo: ContentRepository,
    private readonly spaces: SpacesService,
    private readonly urls: Urls,
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

  async listPages(spaceId: string, source: ContentSource) {
    const revision = await this.revisionFor(spaceId, source);
    return { pages: this.presentTree(spaceId, revision.pages, '') };
  }

  async pageById(spaceId: string, source: ContentSource, pageId: string, format: Format) {
    const revision = await this.revisionFor(spaceId, source);
    const found = findById(revision.pages, pageId);
    if (found === undefined) throw notFound('page', pageId);
    return this.presentPage(spaceId, found.page, parentPathOf(found.path), format);
  }

  /** A document or group by its path (decoded: `a/b`); 404 naming the path when none. */
  async pageByPath(spaceId: string, source: ContentSource, path: string, format: Format) {
    const revision = await this.revisionFor(spaceId, source);
    const found = findByPath(revision.pages, path);
    if (found === undefined) {
      throw new AppError(404, `No page found at path ${JSON.stringify(path)} in this revision`);
    }
    return this.presentPage(spaceId, found.page, parentPathOf(found.path), format);
  }

  presentRevision(spaceId: string, revision: Revision, mergedFrom?: Record<string, unknown>) {
    return {
      object: 'revision' as const,
      id: revision.id,
      type: revision.type,
      parents: revision.parents,
      pages: this.presentTree(spaceId, revision.pages, ''),
      files: [],
      reusableContents: [],
      variables: {},
      createdAt: revision.createdAt,
      urls: { app: `${this.urls.space(spaceId)}/revisions/${revision.id}` },
      ...(mergedFrom === undefined ? {} : { mergedFrom }),
    };
  }

  presentTree(spaceId: string, pages: Tree, parentPath: string): PresentedPage[] {
    return pages.map((page) => this.presentPage(spaceId, page, parentPath, undefined));
  }

  /** GitBook's RevisionPage for a stored page; `format` adds the body. */
  presentPage(
    spaceId: string,
    page: StoredPage,
    parentPath: string,
    format: Format,
  ): PresentedPage {
    const common = {
      id: page.id,
      title: page.title,
      ...(page.emoji === undefined ? {} : { emoji: page.emoji }),
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
    };
    const hidden = page.hidden ? { hidden: true } : {};
    if (page.type === 'link') {
      const target = page.target ?? { kind: 'url', url: '' };
      return {
        ...common,
        kind: 'link',
        type: 'link',
        target,
        ...(target.kind === 'url' && target.url !== undefined ? { href: target.url } : {}),
        ...hidden,
      };
    }
    const path = joinPath(parentPath, page.slug ?? '');
    const children = this.presentTree(spaceId, page.pages, path);
    if (page.type === 'group') {
      return {
        ...common,
        kind: 'group',
        type: 'group',
        slug: page.slug,
        path,
        ...hidden,
        pages: children,
      };
    }
    const markdown = page.markdown ?? '';
    return {
      ...common,
      kind: 'sheet',
      type: 'document',
      urls: { app: `${this.urls.space(spaceId)}/content/page/${page.id}` },
      slug: page.slug,
      path,
      ...(page.description === undefined ? {} : { description: page.description }),
      ...hidden,
      layout: LAYOUT,
      documentId: page.id,
      ...(format === 'markdown' ? { markdown } : {}),
      ...(format === 'document' ? { document: markdownToDocument(markdown) } : {}),
      pages: children,
    };
  }
}

function parentPathOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
