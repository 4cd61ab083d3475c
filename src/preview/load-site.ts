import type { Snapshot } from '../modules/git-sync/import/snapshot.js';
import { CUSTOMIZATION_FILE } from '../modules/git-sync/site/customization-file.js';
import type { Violation } from '../modules/git-sync/site/yaml-file.js';
import { describeViolation } from '../modules/git-sync/site/yaml-file.js';
import { applyStructure } from '../modules/site-git-sync/apply-structure.js';
import { loadSite, snapshotFiles } from '../modules/site-git-sync/load.js';
import { SITE_GONE, SiteStructureRepository } from '../modules/sites/structure/repository.js';
import type { LoadOutcome, LoadTarget, Problem } from './load-folder.js';
import { SITE_FILES } from './load-folder.js';

type ImportSpace = (
  spaceId: string,
  directory: string,
  snapshot: Snapshot,
) => Promise<Omit<LoadOutcome, 'notices'>>;

interface Applied {
  /** The digest of the site files applied (docs.yaml and the customization file). */
  digest: string;
  /** Each space node's space and directory (null: a variant not fed from the folder). */
  spaces: { key: string; spaceId: string; directory: string | null }[];
  warnings: Problem[];
}

/**
 * A folder with docs.yaml (or gitbook-docs.yaml) as a whole site, by the site import's own steps
 * (src/modules/site-git-sync): `loadSite` checks every rule of the site files, `applyStructure`
 * makes the preview site's sections, groups, links and variants what docs.yaml says (one
 * transaction), each variant's directory is imported into its space by the space importer, and
 * the customization file is applied. docs.yaml is applied again only when it (or the
 * customization file) changed; a space is imported again only when a file of its directory
 * changed. A site file that breaks a rule keeps the last good site, with the violations shown.
 */
export class SiteLoader {
  private applied: Applied | undefined;
  private readonly structure: SiteStructureRepository;
  /** Whether this folder was loaded as a site once (then it stays one: docs/preview.md). */
  active = false;

  constructor(
    private readonly target: LoadTarget,
    private readonly importSpace: ImportSpace,
  ) {
    this.structure = new SiteStructureRepository(target.db);
  }

  async load(snapshot: Snapshot): Promise<LoadOutcome> {
    this.active = true;
    const notices: string[] = [];
    const problems: Problem[] = (snapshot.warnings ?? []).map((w) => ({
      severity: 'warning',
      ...w,
    }));
    let changed = false;
    let kept = false;
    const digest = siteFilesDigest(snapshot);
    if (this.applied?.digest !== digest) {
      const loaded = await loadSite(snapshotFiles(snapshot), '');
      if (loaded.ok) {
        const first = this.applied === undefined;
        this.applied = await this.apply(loaded, digest);
        changed = true;
        if (first) {
          const { sections, variants } = countsOf(loaded.config.structure);
          notices.push(
            `${loaded.config.file}: a whole site, ${sections} section${sections === 1 ? '' : 's'}, ${variants} variant${variants === 1 ? '' : 's'}`,
          );
        }
      } else {
        kept = this.applied !== undefined;
        for (const v of loaded.violations) problems.push(violationProblem(v, 'error'));
        problems.push({
          severity: 'error',
          file: loaded.violations[0]?.file ?? 'docs.yaml',
          message:
            this.applied === undefined
              ? 'the site cannot be shown until the site files follow the rules'
              : 'the last good site is shown until the site files follow the rules',
        });
      }
    }
    if (this.applied !== undefined) {
      problems.push(...this.applied.warnings);
      for (const space of this.applied.spaces) {
        if (space.directory === null) continue;
        const outcome = await this.importSpace(space.spaceId, space.directory, snapshot);
        changed ||= outcome.changed;
        kept ||= outcome.kept;
        problems.push(...outcome.problems);
      }
    }
    return { changed, kept, problems, notices };
  }

  private async apply(
    loaded: Extract<Awaited<ReturnType<typeof loadSite>>, { ok: true }>,
    digest: string,
  ): Promise<Applied> {
    const { services, site } = this.target;
    const { config, customization } = loaded;
    const at = new Date().toISOString();
    const result = await this.structure.change(site.siteId, async (tx) => {
      await tx.trx
        .updateTable('sites')
        .set({ title: config.title })
        .where('id', '=', site.siteId)
        .execute();
      return applyStructure(tx, site.organizationId, config, at);
    });
    if (result === SITE_GONE) throw new Error('the preview site is gone');
    const actor = { userId: site.userId, tokenId: null };
    const message = `livery preview: ${CUSTOMIZATION_FILE}`;
    if (customization?.site !== undefined) {
      await services.customization.importSite(
        site.organizationId,
        site.siteId,
        customization.site,
        message,
        actor,
      );
    }
    if (customization?.variants !== undefined) {
      for (const variant of result.variants.values()) {
        await services.customization.importVariant(
          site.organizationId,
          site.siteId,
          variant.siteSpaceId,
          customization.variants.get(variant.node.key) ?? {},
          message,
          actor,
        );
      }
    }
    return {
      digest,
      spaces: [...result.variants].map(([key, v]) => ({
        key,
        spaceId: v.spaceId,
        directory: v.node.repositoryDirectory,
      })),
      warnings: [...loaded.warnings, ...result.warnings].map((v) => violationProblem(v, 'warning')),
    };
  }
}

/** What the site files are now: their blob ids (a change to either applies them again). */
function siteFilesDigest(snapshot: Snapshot): string {
  const names = new Set<string>([...SITE_FILES, CUSTOMIZATION_FILE]);
  return snapshot.entries
    .filter((e) => names.has(e.path))
    .map((e) => `${e.path}:${e.oid}`)
    .join('\n');
}

/** A violation as the banner and the terminal show it: `docs.yaml:12: node "x": … (rule: …)`. */
function violationProblem(v: Violation, severity: Problem['severity']): Problem {
  const text = describeViolation({ ...v, file: '', line: undefined }).replace(/^:\s*/, '');
  return v.line === undefined
    ? { severity, file: v.file, message: text }
    : { severity, file: v.file, line: v.line, message: text };
}

function countsOf(nodes: readonly { type: string; children?: readonly unknown[] }[]): {
  sections: number;
  variants: number;
} {
  let sections = 0;
  let variants = 0;
  const walk = (list: readonly { type: string; children?: readonly unknown[] }[]) => {
    for (const node of list) {
      if (node.type === 'section') sections++;
      if (node.type === 'space') variants++;
      if (node.children !== undefined)
        walk(node.children as { type: string; children?: readonly unknown[] }[]);
    }
  };
  walk(nodes);
  return { sections, variants };
}
