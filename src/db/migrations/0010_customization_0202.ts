import type { Kysely } from 'kysely';

// Shipped migrations are never edited: a change to the schema is a new numbered file. This one is
// self-contained on purpose (it must keep doing what it did when the code it mirrors changes).

/**
 * Stored customization in GitBook 0.202's shape (docs/customization.md, "Both API generations"):
 * every site's settings get the fields 0.202 requires and earlier Livery did not store
 * (`styling.codeTheme`, `socialAccounts`, `pageActions.items`, with their defaults, the items
 * derived from the 0.130 booleans), and every override's partial `pageActions` becomes the whole
 * value it meant on its site. Versions are left alone: the defaults' revision in every ETag
 * changed with this release, so no client keeps a cached document across it. Idempotent.
 */

interface Db {
  sites: { id: string; customization: string | null };
  site_spaces: { id: string; site_id: string; override: string | null };
}

type Json = Record<string, unknown>;
interface PageActions {
  items: string[];
  externalAI: boolean;
  markdown: boolean;
}

const DEFAULT_ITEMS = ['markdown', 'external-ai'];
const BATCH = 500;

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<Db>;
  const sitePageActions = new Map<string, PageActions>();
  for await (const row of rows(db, 'sites', 'customization')) {
    const settings = JSON.parse(row.value) as Json;
    const upgraded = upgradeSettings(settings);
    sitePageActions.set(row.id, upgraded.pageActions as PageActions);
    const json = JSON.stringify(upgraded);
    if (json !== row.value) {
      await db.updateTable('sites').set({ customization: json }).where('id', '=', row.id).execute();
    }
  }
  for await (const row of rows(db, 'site_spaces', 'override')) {
    const override = JSON.parse(row.value) as Json;
    const partial = override.pageActions as Partial<PageActions> | undefined;
    if (partial === undefined || Array.isArray(partial.items)) continue;
    const site = await db
      .selectFrom('site_spaces')
      .select('site_id')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    const base = sitePageActions.get(site.site_id) ?? withBooleans(DEFAULT_ITEMS);
    override.pageActions = edited(base.items, partial);
    await db
      .updateTable('site_spaces')
      .set({ override: JSON.stringify(override) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(): Promise<void> {}

function upgradeSettings(settings: Json): Json {
  const styling = (settings.styling ?? {}) as Json;
  const theme = { light: 'default-light', dark: 'default-dark' };
  const pageActions = (settings.pageActions ?? {}) as Partial<PageActions>;
  return {
    ...settings,
    styling: { ...styling, codeTheme: styling.codeTheme ?? { default: theme, openapi: theme } },
    pageActions: Array.isArray(pageActions.items)
      ? pageActions
      : edited(DEFAULT_ITEMS, { externalAI: true, markdown: true, ...pageActions }),
    socialAccounts: settings.socialAccounts ?? [],
  };
}

/** The 0.130 booleans as edits of a list: true adds the action when missing, false removes it. */
function edited(items: string[], booleans: Partial<PageActions>): PageActions {
  let result = [...items];
  for (const [key, action] of [
    ['externalAI', 'external-ai'],
    ['markdown', 'markdown'],
  ] as const) {
    const on = booleans[key];
    if (on === true && !result.includes(action)) result.push(action);
    if (on === false) result = result.filter((item) => item !== action);
  }
  return withBooleans(result);
}

function withBooleans(items: string[]): PageActions {
  return { items, externalAI: items.includes('external-ai'), markdown: items.includes('markdown') };
}

/** Every non-null value of a JSON column, in batches by id. */
async function* rows(
  db: Kysely<Db>,
  table: 'sites' | 'site_spaces',
  column: 'customization' | 'override',
): AsyncGenerator<{ id: string; value: string }> {
  let after = '';
  for (;;) {
    const batch = (await db
      .selectFrom(table)
      .select(['id', `${column} as value`] as never)
      .where(column as never, 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute()) as unknown as { id: string; value: string }[];
    yield* batch;
    const last = batch.at(-1);
    if (last === undefined || batch.length < BATCH) return;
    after = last.id;
  }
}
