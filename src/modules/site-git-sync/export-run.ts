import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import type { Db } from '../../db/database.js';
import { DEFAULT_SETTINGS } from '../../settings/defaults.js';
import type { CustomizationService } from '../customization/service.js';
import { planExport } from '../git-sync/export/plan.js';
import { GITBOOK_YAML, parseGitbookYaml, spaceRootOf } from '../git-sync/format/gitbook-yaml.js';
import { join } from '../git-sync/format/paths.js';
import { fetchRef, GitError, listTree, readBlobs } from '../git-sync/git-command.js';
import { blobOid, pushCommit, type TreeChange, writeCommit } from '../git-sync/git-write.js';
import { importFailureOf } from '../git-sync/import/fetch.js';
import type { Workspace } from '../git-sync/import/source.js';
import { CUSTOMIZATION_FILE } from '../git-sync/site/customization-file.js';
import { nodesOf, readSiteConfig } from '../git-sync/site/site-config.js';
import { SITE_FILE, SITE_FILE_ALTERNATIVE } from '../git-sync/site/site-file.js';
import type { SyncDeps } from '../git-sync/sync/service.js';
import type { Executor } from '../sites/repository.js';
import { SITE_GONE, type SiteStructureRepository } from '../sites/structure/repository.js';
import { siteDocumentOf, type VariantInfo } from './site-document.js';

/**
 * One export of a whole site (docs/git-sync.md, "Export of a whole site"): docs.yaml, every
 * variant's space in its directory (the space export's planner, export/plan.ts) and the
 * customization file, as ONE commit on the branch's head, pushed without force. Nothing is
 * committed when nothing changed.
 */
export interface SiteExportInput {
  db: Db;
  organizationId: string;
  siteId: string;
  workspace: Workspace;
  branch: string;
  projectDirectory: string;
  message: string;
  /**
   * The repositories (as recorded, credentials `***`) whose layout the export keeps: a space last
   * imported from one of them keeps its directory (this one, and the site's last import's).
   */
  layoutFrom: readonly string[];
  signal: AbortSignal;
  deps: SyncDeps & { structure: SiteStructureRepository; customization: CustomizationService };
}

export type SiteExportOutcome = { kind: 'unchanged' | 'exported'; commit: string };

const REMOTE_REF = 'refs/livery/remote';
const EXPORT_REF = 'refs/livery/site-export';

/** A failure of the export as the site's state says it (the git failures in words). */
export const exportFailureOf = importFailureOf;

/** The export; a push refused because the branch moved meanwhile starts again (3 tries). */
export async function exportSite(input: SiteExportInput): Promise<SiteExportOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await exportOnce(input);
    } catch (error) {
      if (!(error instanceof GitError && error.reason === 'push-rejected') || attempt >= 3) {
        throw error;
      }
    }
  }
}

async function exportOnce(input: SiteExportInput): Promise<SiteExportOutcome> {
  const { db, workspace: ws, signal, deps } = input;
  const { dir } = ws;
  const branchRef = `refs/heads/${input.branch}`;
  const head = await fetchHead(input, branchRef);
  const baseFiles = new Map(
    (head === undefined ? [] : await listTree(dir, head))
      .filter((e) => e.type === 'file')
      .map((e) => [e.path, e.oid]),
  );
  const text = async (path: string) => {
    const oid = baseFiles.get(path);
    if (oid === undefined) return undefined;
    return (await readBlobs(dir, [oid], { signal })).get(oid)?.toString('utf8');
  };

  // docs.yaml (gitbook-docs.yaml when the branch has only that name); the directories it gives
  // each key are kept, so an export over an earlier one moves no space.
  const names = [SITE_FILE, SITE_FILE_ALTERNATIVE].map((name) =>
    join(input.projectDirectory, name),
  );
  const siteFile =
    names.find((path) => baseFiles.has(path)) ?? join(input.projectDirectory, SITE_FILE);
  const branchDirectories = new Map<string, string>();
  const previous = await text(siteFile);
  if (previous !== undefined) {
    const read = readSiteConfig(previous, siteFile, input.projectDirectory);
    if (read.ok) {
      for (const node of nodesOf(read.config.structure)) {
        if (node.type === 'space' && node.repositoryDirectory !== null) {
          branchDirectories.set(node.key, node.repositoryDirectory);
        }
      }
    }
  }

  // The structure, with a key for every node (made now and stored back when missing).
  const site = await db
    .selectFrom('sites')
    .select(['title'])
    .where('id', '=', input.siteId)
    .executeTakeFirstOrThrow();
  const read = await deps.structure.change(input.siteId, async (tx) => {
    const [rows, variantRows] = await Promise.all([tx.rows(), tx.variants()]);
    const spaceIds = variantRows.map((v) => v.space_id);
    const spaces =
      spaceIds.length === 0
        ? []
        : await tx.trx
            .selectFrom('spaces')
            .select(['id', 'title', 'language'])
            .where('id', 'in', spaceIds)
            .where('deleted_at', 'is', null)
            .execute();
    const syncs =
      spaceIds.length === 0
        ? []
        : await tx.trx
            .selectFrom('git_sync')
            .selectAll()
            .where('space_id', 'in', spaceIds)
            .execute();
    const spaceOf = new Map(spaces.map((s) => [s.id, s]));
    const syncOf = new Map(syncs.map((s) => [s.space_id, s]));
    const pageCounts = await pageCountsOf(tx.trx, spaceIds);
    const variants: VariantInfo[] = variantRows.map((row) => {
      const sync = syncOf.get(row.space_id);
      const space = spaceOf.get(row.space_id);
      return {
        row,
        spaceTitle: space?.title ?? row.path,
        language: space?.language ?? null,
        kept:
          (row.git_key === null ? undefined : branchDirectories.get(row.git_key)) ??
          (sync !== undefined && input.layoutFrom.includes(sync.url)
            ? (sync.project_directory ?? '')
            : undefined),
        empty: sync === undefined && (pageCounts.get(row.space_id) ?? 0) === 0,
      };
    });
    const doc = siteDocumentOf({
      title: site.title,
      rows,
      variants,
      projectDirectory: input.projectDirectory,
    });
    for (const [id, key] of doc.newKeys) {
      if (variantRows.some((v) => v.id === id)) await tx.updateVariant(id, { git_key: key });
      else {
        const kind = rows.sections.some((s) => s.id === id)
          ? 'site-section'
          : rows.groups.some((g) => g.id === id)
            ? 'site-section-group'
            : 'site-external-link';
        await tx.updateNode(kind, id, { git_key: key });
      }
    }
    return { doc, variants, syncOf };
  });
  if (read === SITE_GONE) throw new Error('the site was deleted during the export');
  const { doc, variants, syncOf } = read;

  const changes = new Map<string, TreeChange>();
  const put = (change: TreeChange) => {
    if (!changes.has(change.path)) changes.set(change.path, change);
  };
  const fileChange = (path: string, content: string | undefined) => {
    if (content === undefined) {
      if (baseFiles.has(path)) put({ path, delete: true });
      return;
    }
    const data = Buffer.from(content, 'utf8');
    put({ path, data });
  };

  fileChange(siteFile, stringify(doc.document, { lineWidth: 0 }));

  // Each variant's space in its directory (a directory two variants share is written once).
  const written = new Set<string>();
  for (const variant of variants) {
    const directory = doc.directories.get(variant.row.id);
    if (directory === undefined || written.has(directory)) continue;
    written.add(directory);
    const revisionId = await deps.spaces.currentRevisionId(variant.row.space_id);
    const revision = await deps.content.revision(revisionId);
    if (revision === undefined) throw new Error(`revision ${revisionId} is missing`);
    const configPath = join(directory, GITBOOK_YAML);
    const config = parseGitbookYaml(await text(configPath), configPath);
    const sync = syncOf.get(variant.row.space_id);
    // The files the space owned there (deleted when it no longer has them): only in the
    // repository it last synced with.
    const owned =
      variant.kept === directory && sync?.url === ws.redacted && sync.owned_paths != null
        ? (JSON.parse(sync.owned_paths) as string[])
        : [];
    const plan = await planExport({
      pages: revision.pages,
      files: await deps.filesService.files(revision),
      includes: await deps.filesService.reusableContents(revision),
      root: spaceRootOf(directory, config),
      readme: config.readme,
      summary: config.summary,
      base: baseFiles,
      owned: new Set(owned),
      text,
      bytes: (hash) => deps.filesService.blob(hash),
    });
    for (const change of plan.changes) put(change);
  }

  // Customization as code: written when the site has any, removed when it has none left.
  const customization = await customizationFileOf(input, variants, doc.newKeys);
  fileChange(join(input.projectDirectory, CUSTOMIZATION_FILE), customization);

  // Only real changes: a file written with the bytes it has is no change.
  const real = [...changes.values()].filter(
    (c) => !('data' in c) || baseFiles.get(c.path) !== blobOid(c.data),
  );
  if (head !== undefined && real.length === 0) return { kind: 'unchanged', commit: head };
  const commit = await writeCommit(
    dir,
    {
      ref: EXPORT_REF,
      parents: head === undefined ? [] : [head],
      changes: real,
      message: input.message,
      author: deps.config.author,
      time: Math.floor(Date.now() / 1000),
    },
    signal,
  );
  await pushCommit(dir, ws.location, commit, branchRef, {
    timeoutMs: deps.config.operationTimeoutMs,
    signal,
    ...(ws.addresses === undefined ? {} : { addresses: ws.addresses }),
  });
  return { kind: 'exported', commit };
}

async function customizationFileOf(
  input: SiteExportInput,
  variants: readonly VariantInfo[],
  newKeys: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  const { customization } = input.deps;
  const site = JSON.parse(
    (await customization.getSite(input.organizationId, input.siteId)).json,
  ) as unknown;
  const document: { site?: unknown; variants?: Record<string, unknown> } = {};
  if (!isDeepStrictEqual(site, JSON.parse(JSON.stringify(DEFAULT_SETTINGS)))) document.site = site;
  const overrides: Record<string, unknown> = {};
  for (const variant of variants) {
    const { override } = await customization.getOverride(
      input.organizationId,
      input.siteId,
      variant.row.id,
    );
    if (Object.keys(override).length === 0) continue;
    const key = variant.row.git_key ?? newKeys.get(variant.row.id);
    if (key !== undefined) overrides[key] = override;
  }
  if (Object.keys(overrides).length > 0) document.variants = overrides;
  if (document.site === undefined && document.variants === undefined) return undefined;
  return `# Livery's customization of this site (docs/git-sync.md, "Customization as code").\n${stringify(document, { lineWidth: 0 })}`;
}

async function fetchHead(input: SiteExportInput, branchRef: string): Promise<string | undefined> {
  const ws = input.workspace;
  try {
    return await fetchRef(ws.dir, ws.location, branchRef, {
      depth: 1,
      into: REMOTE_REF,
      timeoutMs: input.deps.config.operationTimeoutMs,
      signal: input.signal,
      ...(ws.addresses === undefined ? {} : { addresses: ws.addresses }),
    });
  } catch (error) {
    if (error instanceof GitError && error.reason === 'unknown-ref') return undefined;
    throw error;
  }
}

/** How many top-level pages each space's current revision has (0: an empty space). */
async function pageCountsOf(
  trx: Executor,
  spaceIds: readonly string[],
): Promise<Map<string, number>> {
  if (spaceIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('spaces as s')
    .innerJoin('revisions as r', 'r.id', 's.revision_id')
    .select(['s.id', 'r.page_nodes'])
    .where('s.id', 'in', spaceIds)
    .where('s.deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.id, (JSON.parse(r.page_nodes) as unknown[]).length]));
}
