import type { Db } from '../../db/database.js';
import { GenerationCache } from '../../db/prepared.js';
import type { SiteRedirectRow, SiteRow } from '../../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import type { Actor } from '../audit/actor.js';
import type { AuditEntry } from '../audit/record.js';
import type { Revision } from '../content/repository.js';
import { describeChainProblem, findChainProblem } from './chains.js';
import { checkedDestination, locationOf, pathInSite, type SiteContent } from './destinations.js';
import type {
  OrderBy,
  RedirectFilters,
  RedirectsRepository,
  RedirectWrites,
} from './repository.js';
import type {
  BulkItem,
  BulkResult,
  CreateSiteRedirect,
  Destination,
  SiteRedirect,
  UpdateSiteRedirect,
} from './schemas.js';
import { canonicalSource, type Matched, RuleIndex } from './source-path.js';

/** A site's variants as the published site reads them (modules/published/repository.ts). */
type Variants = SiteContent['variants'];

export interface RedirectsDeps {
  /** The site, in its organization (404 otherwise). */
  requireSite: (organizationId: string, siteId: string) => Promise<SiteRow>;
  variantsOf: (siteId: string) => Promise<Variants>;
  revisionOf: (spaceId: string) => Promise<Revision>;
  /** The site's own absolute addresses, each ending with `/` (for chain checks). */
  siteRoots: (site: SiteRow) => string[];
}

/** A live rule with its parsed destination, as the per-site index holds it. */
interface LiveRule {
  row: SiteRedirectRow;
  source: string;
  destination: Destination;
}

/** What a request for a site path is redirected to. */
export interface Redirection {
  redirect: SiteRedirect;
  location: string;
  /** 308 (permanent, public live traffic) or 307. */
  status: 307 | 308;
}

/** The live rules of the sites read recently (each index: one per site, a few hundred KB at 5,000 rules). */
const INDEXES_KEPT = 200;

/**
 * Site redirects (GitBook 0.202's site-redirects; docs/sites.md, "Redirects"): the rules'
 * operations, and the lookup the published site and the renderer API make.
 */
export class RedirectsService {
  /** Per site, its live rules indexed by source, kept while the database is unchanged. */
  private readonly indexes: GenerationCache<RuleIndex<LiveRule>>;

  constructor(
    db: Db,
    private readonly repo: RedirectsRepository,
    private readonly deps: RedirectsDeps,
  ) {
    this.indexes = new GenerationCache(db, INDEXES_KEPT);
  }

  async list(
    organizationId: string,
    siteId: string,
    query: {
      draft?: boolean | undefined;
      search?: string | undefined;
      orderBy?: OrderBy | undefined;
    },
    page: PageRequest,
  ): Promise<Page<SiteRedirect>> {
    await this.deps.requireSite(organizationId, siteId);
    const filters: RedirectFilters = {
      draft: query.draft ?? false,
      search: query.search,
      orderBy: query.orderBy ?? 'createdAt',
    };
    const { rows, count } = await this.repo.list(siteId, filters, page.cursor, page.limit);
    const keyOf =
      filters.orderBy === 'source'
        ? (row: SiteRedirectRow) => row.source
        : filters.orderBy === 'updatedAt'
          ? (row: SiteRedirectRow) => row.updated_at ?? row.created_at
          : (row: SiteRedirectRow) => row.created_at;
    return toPage(rows, page.limit, count, present, keyOf);
  }

  /** createSiteRedirect: 409 when the site has a rule of that source (live or draft alike). */
  async create(
    organizationId: string,
    siteId: string,
    input: CreateSiteRedirect,
    actor: Actor,
  ): Promise<SiteRedirect> {
    const site = await this.deps.requireSite(organizationId, siteId);
    const source = sourceOf(input.source, 'body.source');
    const content = await this.content(siteId);
    const destination = await checkedDestination(input.destination, content, 'body.destination');
    const draft = input.draft ?? false;
    const at = now();
    const row: SiteRedirectRow = {
      id: newId('redir_'),
      site_id: siteId,
      source,
      draft: draft ? 1 : 0,
      capture_wildcard: input.captureWildcard === true ? 1 : 0,
      permanent: input.permanent === true ? 1 : 0,
      destination: JSON.stringify(destination),
      created_at: at,
      updated_at: null,
    };
    const done = await this.repo.change(siteId, (rows) => {
      if (rows.some((r) => r.source === source && r.draft === row.draft)) {
        throw conflict(
          `body.source: this site already has a ${draft ? 'draft' : 'live'} redirect from ${source}`,
        );
      }
      this.refuseChains(site, [...rows, row], [row.id], () => 'body');
      return {
        writes: {
          insert: [row],
          update: [],
          remove: [],
          audit: [entry(site, 'created', row, actor, at)],
        },
        result: row,
      };
    });
    if (done === undefined) throw notFound('site', siteId);
    return present(done.result);
  }

  /** updateSiteRedirectById: only the fields given change. */
  async update(
    organizationId: string,
    siteId: string,
    redirectId: string,
    input: UpdateSiteRedirect,
    actor: Actor,
  ): Promise<SiteRedirect> {
    const site = await this.deps.requireSite(organizationId, siteId);
    const source = input.source === undefined ? undefined : sourceOf(input.source, 'body.source');
    const destination =
      input.destination === undefined
        ? undefined
        : await checkedDestination(
            input.destination,
            await this.content(siteId),
            'body.destination',
          );
    const at = now();
    const done = await this.repo.change(siteId, (rows) => {
      const old = rows.find((r) => r.id === redirectId);
      if (old === undefined) throw notFound('site redirect', redirectId);
      const row: SiteRedirectRow = {
        ...old,
        ...(source === undefined ? {} : { source }),
        ...(input.draft === undefined ? {} : { draft: input.draft ? 1 : 0 }),
        ...(input.captureWildcard === undefined
          ? {}
          : { capture_wildcard: input.captureWildcard ? 1 : 0 }),
        ...(input.permanent === undefined ? {} : { permanent: input.permanent ? 1 : 0 }),
        ...(destination === undefined ? {} : { destination: JSON.stringify(destination) }),
        updated_at: at,
      };
      if (rows.some((r) => r.id !== row.id && r.source === row.source && r.draft === row.draft)) {
        throw conflict(
          `body.${source === undefined ? 'draft' : 'source'}: this site already has a ${row.draft === 1 ? 'draft' : 'live'} redirect from ${row.source}`,
        );
      }
      this.refuseChains(
        site,
        rows.map((r) => (r.id === row.id ? row : r)),
        [row.id],
        () => 'body',
      );
      return {
        writes: {
          insert: [],
          update: [row],
          remove: [],
          audit: [entry(site, 'updated', row, actor, at)],
        },
        result: row,
      };
    });
    if (done === undefined) throw notFound('site', siteId);
    return present(done.result);
  }

  /** deleteSiteRedirectById: true when the rule existed (205), false when it did not (204). */
  async delete(
    organizationId: string,
    siteId: string,
    redirectId: string,
    actor: Actor,
  ): Promise<boolean> {
    const site = await this.deps.requireSite(organizationId, siteId);
    const done = await this.repo.change(siteId, (rows) => {
      const old = rows.find((r) => r.id === redirectId);
      const writes: RedirectWrites =
        old === undefined
          ? { insert: [], update: [], remove: [], audit: [] }
          : {
              insert: [],
              update: [],
              remove: [old.id],
              audit: [entry(site, 'deleted', old, actor, now())],
            };
      return { writes, result: old !== undefined };
    });
    if (done === undefined) throw notFound('site', siteId);
    return done.result;
  }

  /**
   * bulkUpsertSiteRedirects: the items applied in order to the site's rules, all or nothing: an
   * item Livery refuses fails the whole request with a 400 naming it, and nothing changes (the
   * per-item `error` status is never answered).
   */
  async bulk(
    organizationId: string,
    siteId: string,
    items: BulkItem[],
    actor: Actor,
  ): Promise<{ results: BulkResult[] }> {
    const site = await this.deps.requireSite(organizationId, siteId);
    const content = await this.content(siteId);
    const prepared: Step[] = [];
    for (const [i, item] of items.entries()) {
      const field = `body.redirects[${i}]`;
      const source = sourceOf(item.source, `${field}.source`);
      if (item.intent === 'publish') prepared.push({ kind: 'publish' as const, source, i });
      else {
        const destination =
          item.destination === null
            ? null
            : await checkedDestination(item.destination, content, `${field}.destination`);
        prepared.push({ kind: 'upsert' as const, source, i, item, destination });
      }
    }
    const at = now();
    const done = await this.repo.change(siteId, (initial) => {
      const rows = new Map(initial.map((r) => [r.id, r]));
      const touched = new Map<string, number>(); // rule id → first item that touched it
      const results: BulkResult[] = [];
      const audit: AuditEntry[] = [];
      const bySource = (source: string, draft: number) =>
        [...rows.values()].find((r) => r.source === source && r.draft === draft);
      for (const step of prepared) {
        const field = `body.redirects[${step.i}]`;
        if (step.kind === 'publish') {
          const draft = bySource(step.source, 1);
          if (draft === undefined) {
            throw badRequest(`${field}.source: no draft redirect from ${step.source} to publish`);
          }
          const live = bySource(step.source, 0);
          rows.delete(draft.id);
          // The live rule keeps its id when there is one: it takes the draft's settings.
          const published: SiteRedirectRow = {
            ...(live ?? draft),
            draft: 0,
            capture_wildcard: draft.capture_wildcard,
            permanent: draft.permanent,
            destination: draft.destination,
            updated_at: at,
          };
          rows.set(published.id, published);
          if (!touched.has(published.id)) touched.set(published.id, step.i);
          results.push({
            status: 'published',
            source: step.source,
            draft: false,
            id: published.id,
          });
          audit.push(entry(site, 'published', published, actor, at));
          continue;
        }
        const draftFlag = step.item.intent === 'draft' ? 1 : 0;
        const existing = bySource(step.source, draftFlag);
        if (step.destination === null) {
          if (existing !== undefined) {
            rows.delete(existing.id);
            audit.push(entry(site, 'deleted', existing, actor, at));
          }
          results.push({ status: 'deleted', source: step.source, draft: draftFlag === 1 });
          continue;
        }
        const { captureWildcard, permanent } = step.item;
        const row: SiteRedirectRow =
          existing === undefined
            ? {
                id: newId('redir_'),
                site_id: siteId,
                source: step.source,
                draft: draftFlag,
                capture_wildcard: captureWildcard === true ? 1 : 0,
                permanent: permanent === true ? 1 : 0,
                destination: JSON.stringify(step.destination),
                created_at: at,
                updated_at: null,
              }
            : {
                ...existing,
                ...(captureWildcard === undefined
                  ? {}
                  : { capture_wildcard: captureWildcard ? 1 : 0 }),
                ...(permanent === undefined ? {} : { permanent: permanent ? 1 : 0 }),
                destination: JSON.stringify(step.destination),
                updated_at: at,
              };
        rows.set(row.id, row);
        if (!touched.has(row.id)) touched.set(row.id, step.i);
        const status = existing === undefined ? 'created' : 'updated';
        results.push({ status, source: step.source, draft: draftFlag === 1, id: row.id });
        audit.push(entry(site, status, row, actor, at));
      }
      this.refuseChains(
        site,
        [...rows.values()],
        [...touched.keys()],
        (id) => `body.redirects[${touched.get(id)}]`,
      );
      return { writes: diff(initial, rows, audit), result: results };
    });
    if (done === undefined) throw notFound('site', siteId);
    return { results: done.result };
  }

  /**
   * 400 when the live rules, as they would be, hold a loop or an over-long chain through a
   * changed rule; `fieldOf` names the request's part that changed it.
   */
  private refuseChains(
    site: SiteRow,
    rows: SiteRedirectRow[],
    changed: string[],
    fieldOf: (id: string) => string,
  ): void {
    const roots = this.deps.siteRoots(site);
    const live = rows
      .filter((r) => r.draft === 0)
      .map((r) => ({
        id: r.id,
        source: r.source,
        captureWildcard: r.capture_wildcard === 1,
        inSite: pathInSite(JSON.parse(r.destination) as Destination, roots),
      }));
    const problem = findChainProblem(live, changed);
    if (problem === undefined) return;
    throw badRequest(
      `${fieldOf(problem.blamed.id)}.${problem.field}: ${describeChainProblem(problem)}`,
    );
  }

  /** The site's variants and a reader of their content, for destinations. */
  private async content(siteId: string): Promise<SiteContent> {
    return { variants: await this.deps.variantsOf(siteId), revisionOf: this.deps.revisionOf };
  }

  /** The site's live rules, indexed (kept until the next commit, by any process). */
  private index(siteId: string): Promise<RuleIndex<LiveRule>> {
    return this.indexes.get(siteId, async () => {
      const rows = await this.repo.liveRules(siteId);
      return new RuleIndex(
        rows.map((row) => ({
          row,
          source: row.source,
          destination: JSON.parse(row.destination) as Destination,
        })),
      );
    });
  }

  /**
   * The live rule a site path (canonical, `/old/page`) matches, and where it sends the visitor
   * under `base` (the site's root, ending with `/`). `publicLive`: the request is public live
   * traffic (a published public or unlisted site), which alone gets 308 for permanent rules.
   */
  async resolve(
    site: SiteRow,
    path: string,
    base: string,
    options: { publicLive: boolean; variants?: Variants },
  ): Promise<Redirection | undefined> {
    const index = await this.index(site.id);
    if (index.size === 0) return undefined;
    const matched: Matched<LiveRule> | undefined = index.match(path);
    if (matched === undefined) return undefined;
    const { rule } = matched;
    const content = {
      variants: options.variants ?? (await this.deps.variantsOf(site.id)),
      revisionOf: this.deps.revisionOf,
    };
    const captured = rule.row.capture_wildcard === 1 ? matched : undefined;
    const location = await locationOf(rule.destination, captured, base, content);
    if (location === undefined) return undefined;
    const permanent = rule.row.permanent === 1 && options.publicLive;
    return { redirect: present(rule.row), location, status: permanent ? 308 : 307 };
  }
}

/** A bulk item, checked (its destination stored form) before the transaction. */
type Step =
  | { kind: 'publish'; source: string; i: number }
  | {
      kind: 'upsert';
      source: string;
      i: number;
      item: Extract<BulkItem, { destination: unknown }>;
      destination: Destination | null;
    };

/** A source as given, canonical; 400 naming `field` when it can name no address. */
function sourceOf(source: string, field: string): string {
  const canonical = canonicalSource(source);
  if (canonical === undefined) {
    throw new AppError(400, `${field}: a source cannot have "." or ".." segments`);
  }
  return canonical;
}

function present(row: SiteRedirectRow): SiteRedirect {
  return {
    object: 'site-redirect',
    id: row.id,
    source: row.source,
    draft: row.draft === 1,
    captureWildcard: row.capture_wildcard === 1,
    permanent: row.permanent === 1,
    destination: JSON.parse(row.destination) as Destination,
    createdAt: row.created_at,
    ...(row.updated_at === null ? {} : { updatedAt: row.updated_at }),
  };
}

function entry(
  site: SiteRow,
  what: 'created' | 'updated' | 'deleted' | 'published',
  row: SiteRedirectRow,
  actor: Actor,
  at: string,
): AuditEntry {
  return {
    organizationId: site.organization_id,
    actor,
    action: `site.redirect.${what}`,
    target: { kind: 'site', id: site.id },
    details: { redirect: row.id, source: row.source, draft: row.draft === 1 },
    at,
  };
}

/** The writes that turn `initial` into `final` (by id). */
function diff(
  initial: SiteRedirectRow[],
  final: Map<string, SiteRedirectRow>,
  audit: AuditEntry[],
): RedirectWrites {
  const before = new Map(initial.map((r) => [r.id, r]));
  const writes: RedirectWrites = { insert: [], update: [], remove: [], audit };
  for (const row of initial) if (!final.has(row.id)) writes.remove.push(row.id);
  for (const row of final.values()) {
    const old = before.get(row.id);
    if (old === undefined) writes.insert.push(row);
    else if (old !== row) writes.update.push(row);
  }
  return writes;
}
