import { AppError, notFound } from '../../errors.js';
import type { FilesService } from '../files/service.js';
import type { ChangeRequestsService } from './change-requests-service.js';
import { layoutOf } from './page-layout.js';
import type { ContentRepository, Revision } from './repository.js';
import { type RevisionSide, type SemanticChange, semanticChanges } from './semantic-changes.js';
import type { ContentService } from './service.js';
import { findById } from './tree.js';

/** getRevisionSemanticChanges' `limit` when none is given (GitBook 0.202's default). */
export const DEFAULT_CHANGES = 10;

/**
 * Two reads of a space's content by GitBook's ids (docs/content.md): what a revision changed
 * against its parent (getRevisionSemanticChanges), and a document by its id (getDocumentById).
 */
export class RevisionReadsService {
  constructor(
    private readonly deps: {
      content: ContentService;
      repo: Pick<ContentRepository, 'revision'>;
      files: FilesService;
      changeRequests: Pick<ChangeRequestsService, 'get'>;
    },
  ) {}

  /**
   * The revision's changes against its first parent (the space's revision it was made on; for a
   * merge, the space before the merge), the first `limit` of them and how many more; a revision
   * without a parent (a space's first) created every page it has.
   */
  async changes(spaceId: string, revisionId: string, limit: number) {
    const { content, repo, changeRequests } = this.deps;
    const revision = await content.revisionFor(spaceId, { kind: 'revision', revisionId });
    const parentId = revision.parents[0];
    const parent = parentId === undefined ? undefined : await repo.revision(parentId);
    if (parentId !== undefined && parent === undefined) {
      // Revisions are never deleted while the space lives: a missing parent is a damaged store.
      throw new AppError(500, `Revision ${revisionId}'s parent ${parentId} is missing`);
    }
    const [before, after] = await Promise.all([
      parent === undefined ? undefined : this.side(parent),
      this.side(revision),
    ]);
    const all: SemanticChange[] = semanticChanges(before, after, { layoutOf });
    const mergedFrom =
      revision.mergedFrom === null
        ? undefined
        : await changeRequests.get(spaceId, revision.mergedFrom);
    return {
      ...(mergedFrom === undefined ? {} : { mergedFrom }),
      changes: all.slice(0, limit),
      ...(all.length > limit ? { more: all.length - limit } : {}),
    };
  }

  private async side(revision: Revision): Promise<RevisionSide> {
    const { files } = this.deps;
    const [stored, reusable] = await Promise.all([
      files.files(revision),
      files.reusableContents(revision),
    ]);
    return {
      pages: revision.pages,
      files: stored.map((f) => files.present(f)),
      reusableContents: reusable,
    };
  }

  /**
   * getDocumentById: a document of the space's current revision by its id. A document page's
   * document id is its page id (the `documentId` of page objects), a reusable content's is its
   * own id (its `document`): the page's body, else the reusable content's; 404 otherwise (a
   * group or a link has no document).
   */
  async document(spaceId: string, documentId: string): Promise<Buffer> {
    const { content, files } = this.deps;
    const revision = await content.revisionFor(spaceId, { kind: 'space' });
    const found = findById(revision.pages, documentId);
    if (found?.page.type === 'document') {
      return content.pageDocument(
        spaceId,
        { kind: 'revision', revisionId: revision.id },
        found.page.id,
      );
    }
    const reusable = (await files.reusableContents(revision)).find((r) => r.id === documentId);
    if (reusable === undefined) throw notFound('document', documentId);
    return content.reusableDocumentJson(revision, {
      id: reusable.id,
      title: reusable.title,
      markdown: reusable.markdown,
      ...(reusable.gitPath === undefined ? {} : { gitPath: reusable.gitPath }),
    });
  }
}
