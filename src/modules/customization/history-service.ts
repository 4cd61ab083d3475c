import type { CustomizationRevisionRow } from '../../db/schema.js';
import { decodeCursor, type Page, toPage } from '../../http/pagination.js';
import { DEFAULT_SETTINGS } from '../../settings/defaults.js';
import { actorView } from '../audit/actor.js';

const DEFAULT_JSON = JSON.stringify(DEFAULT_SETTINGS);

import { diff } from '../../settings/json-patch.js';
import {
  effectiveSettings,
  type JsonObject,
  type JsonValue,
  type Override,
} from '../../settings/merge.js';
import type { Settings } from '../../settings/settings-schema.js';
import type { RevisionSummary } from './history-schemas.js';
import { requireSite, requireVariant, unknownRevision } from './records.js';
import type { CustomizationRepository } from './repository.js';

/** The customization a history belongs to: a site, or one of its variants. */
export interface HistoryScope {
  organizationId: string;
  siteId: string;
  siteSpaceId?: string | undefined;
}

type SummaryRow = Pick<
  CustomizationRevisionRow,
  | 'number'
  | 'created_at'
  | 'actor_user_id'
  | 'actor_token_id'
  | 'operation'
  | 'etag'
  | 'changes'
  | 'restored_from'
  | 'message'
>;

/** Reads of customization history (docs/history.md); restores are writes (service.ts). */
export class CustomizationHistoryService {
  constructor(private readonly repo: CustomizationRepository) {}

  async list(
    scope: HistoryScope,
    page: { page?: string | undefined; limit?: number | undefined },
  ): Promise<Page<RevisionSummary>> {
    const key = await this.resolve(scope);
    const cursor = decodeCursor(page.page, 'integer'); // by revision number
    const limit = page.limit ?? 100;
    const before = cursor === undefined ? undefined : Number(cursor.key);
    const { rows, count } = await this.repo.listRevisions(key, before, limit);
    const keyed = rows.map((row) => ({ ...row, id: String(row.number) }));
    return toPage(keyed, limit, count, summary, (row) => row.number);
  }

  async get(scope: HistoryScope, number: number) {
    const key = await this.resolve(scope);
    const row = await this.repo.getRevision(key, number);
    if (row === undefined) throw unknownRevision('params.number', number);
    const settings = row.document === null ? null : (JSON.parse(row.document) as JsonObject);
    const effective =
      scope.siteSpaceId === undefined ? undefined : await this.effectiveOf(scope.siteId, row);
    return { ...summary(row), settings, ...(effective === undefined ? {} : { effective }) };
  }

  /**
   * The effective settings a variant revision produced: its override over the site's settings
   * of that moment, which its ETag names (`"c<defaults>.<site version>.<override version>"`):
   * the defaults (version 0) or the site revision that produced `"c<defaults>.<site version>"`.
   * Not stored with the revision, which would triple its size. Undefined when that site revision
   * has been pruned.
   */
  private async effectiveOf(siteId: string, row: CustomizationRevisionRow) {
    const [defaults, siteVersion] = row.etag.slice(1, -1).split('.');
    let site: string | undefined = DEFAULT_JSON;
    if (siteVersion !== '0') {
      site = await this.repo.siteDocumentByEtag(siteId, `"${defaults}.${siteVersion}"`);
    }
    if (site === undefined) return undefined;
    const override = row.document === null ? {} : (JSON.parse(row.document) as Override);
    return effectiveSettings(JSON.parse(site) as Settings, override) as unknown as JsonObject;
  }

  async compare(scope: HistoryScope, from: number, to: number) {
    const key = await this.resolve(scope);
    const documentOf = async (number: number, parameter: string): Promise<JsonValue> => {
      // 0: before any revision, the defaults of a site or no override of a variant.
      if (number === 0)
        return scope.siteSpaceId === undefined ? (DEFAULT_SETTINGS as unknown as JsonValue) : {};
      const row = await this.repo.getRevision(key, number);
      if (row === undefined) throw unknownRevision(parameter, number);
      return JSON.parse(row.document ?? '{}') as JsonValue;
    };
    const changes = diff(
      await documentOf(from, 'querystring.from'),
      await documentOf(to, 'querystring.to'),
    );
    return { object: 'customization-comparison' as const, from, to, changes };
  }

  /** The history's key (the site's or the variant's id), or the 404 of what is missing. */
  private async resolve({ organizationId, siteId, siteSpaceId }: HistoryScope): Promise<string> {
    if (siteSpaceId === undefined) {
      await requireSite(this.repo, organizationId, siteId);
      return siteId;
    }
    await requireVariant(this.repo, organizationId, siteId, siteSpaceId);
    return siteSpaceId;
  }
}

function summary(row: SummaryRow): RevisionSummary {
  return {
    object: 'customization-revision',
    number: row.number,
    createdAt: row.created_at,
    actor: row.actor_user_id === null ? null : actorView(row.actor_user_id, row.actor_token_id),
    operation: row.operation,
    etag: row.etag,
    changes: JSON.parse(row.changes) as RevisionSummary['changes'],
    ...(row.restored_from === null ? {} : { restoredFrom: row.restored_from }),
    ...(row.message === null || row.message === undefined ? {} : { message: row.message }),
  };
}
