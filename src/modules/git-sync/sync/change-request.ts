import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../../../ids.js';
import { importCommit } from '../import/run.js';
import type { Workspace } from '../import/source.js';
import type { SyncDeps } from './service.js';

/**
 * A commit of the cache repository imported as a change request of the space (docs/git-sync.md):
 * a branch's preview, or Livery's side of a conflict the branch won. Its revision is a standalone
 * import whose parent is the space's current revision, so the change request shows what the
 * commit changes against the space; an `existing` change request (a preview's next push) is
 * pointed at the new revision instead.
 */
export async function importAsChangeRequest(input: {
  spaceId: string;
  workspace: Workspace;
  commit: string;
  projectDirectory: string;
  subject: string;
  actor: string | null;
  existing?: { id: string; revisionId: string };
  deps: SyncDeps & { log: FastifyBaseLogger };
  signal: AbortSignal;
}): Promise<{ changeRequestId: string; revisionId: string }> {
  const { deps } = input;
  const base = await deps.spaces.currentRevisionId(input.spaceId);
  const outcome = await importCommit({
    spaceId: input.spaceId,
    fetchUrl: '',
    request: { url: input.workspace.redacted, ref: input.commit, force: true, standalone: true },
    projectDirectory: input.projectDirectory,
    actor: input.actor,
    lastCommit: null,
    signal: input.signal,
    spaces: deps.spaces,
    content: deps.content,
    files: deps.files,
    source: {
      ...deps.source,
      snapshot: (_key, _ref, signal) =>
        deps.source.snapshotAt(input.workspace.dir, input.commit, signal),
    },
    limits: deps.limits,
    log: deps.log,
    end: async () => true,
  });
  if (outcome.kind !== 'imported') throw new Error('a forced import is never unchanged');
  const now = new Date().toISOString();
  if (input.existing !== undefined) {
    const moved = await deps.content.pointChangeRequest(
      input.existing.id,
      input.existing.revisionId,
      outcome.revision,
      now,
    );
    if (moved) return { changeRequestId: input.existing.id, revisionId: outcome.revision };
  }
  const request = await deps.content.insertChangeRequest({
    id: newId(),
    space_id: input.spaceId,
    status: 'open',
    subject: input.subject,
    created_by: input.actor ?? 'livery',
    created_at: now,
    updated_at: now,
    revision_id: outcome.revision,
    revision_initial: base,
    revision_merged_ancestor: null,
    revision_merged: null,
  });
  return { changeRequestId: request.id, revisionId: outcome.revision };
}
