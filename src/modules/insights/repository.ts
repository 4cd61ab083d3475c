import type { Db } from '../../db/database.js';
import type { PageFeedbackRow } from '../../db/schema.js';
import type { RatingCounts } from './score.js';

export class InsightsRepository {
  constructor(private readonly db: Db) {}

  async findFeedback(spaceId: string, pageId: string, visitorId: string) {
    return this.db
      .selectFrom('page_feedbacks')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('page_id', '=', pageId)
      .where('visitor_id', '=', visitorId)
      .executeTakeFirst();
  }

  /**
   * One rating per visitor and page: inserted when new, else replaced. `created` says which;
   * of two first ratings at once, one inserts and the other replaces it.
   */
  async putFeedback(row: PageFeedbackRow): Promise<{ created: boolean; row: PageFeedbackRow }> {
    const inserted = await this.db
      .insertInto('page_feedbacks')
      .values(row)
      .onConflict((oc) => oc.columns(['space_id', 'page_id', 'visitor_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted !== undefined) return { created: true, row: inserted };
    const updated = await this.db
      .updateTable('page_feedbacks')
      .set({ rating: row.rating, revision_id: row.revision_id, updated_at: row.updated_at })
      .where('space_id', '=', row.space_id)
      .where('page_id', '=', row.page_id)
      .where('visitor_id', '=', row.visitor_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { created: false, row: updated };
  }

  /** One more view of the page on `day`. */
  async countView(spaceId: string, pageId: string, day: string): Promise<void> {
    await this.db
      .insertInto('page_view_days')
      .values({ space_id: spaceId, page_id: pageId, day, views: 1 })
      .onConflict((oc) =>
        oc
          .columns(['space_id', 'day', 'page_id'])
          .doUpdateSet((eb) => ({ views: eb('page_view_days.views', '+', 1) })),
      )
      .execute();
  }

  /**
   * Views and rating counts per page of a space, since `since` (ISO time) when given: views of
   * that time's day onwards, ratings given since that time.
   */
  async totals(spaceId: string, since: string | undefined) {
    let views = this.db
      .selectFrom('page_view_days')
      .select(['page_id', (eb) => eb.fn.sum<number>('views').as('n')])
      .where('space_id', '=', spaceId);
    if (since !== undefined) views = views.where('day', '>=', since.slice(0, 10));
    let ratings = this.db
      .selectFrom('page_feedbacks')
      .select(['page_id', 'rating', (eb) => eb.fn.countAll<number>().as('n')])
      .where('space_id', '=', spaceId);
    if (since !== undefined) ratings = ratings.where('updated_at', '>=', since);
    const [viewRows, ratingRows] = await Promise.all([
      views.groupBy('page_id').execute(),
      ratings.groupBy(['page_id', 'rating']).execute(),
    ]);
    const pageViews = new Map(viewRows.map((row) => [row.page_id, Number(row.n)]));
    const counts = new Map<string, RatingCounts>();
    for (const { page_id, rating, n } of ratingRows) {
      const entry = counts.get(page_id) ?? { good: 0, ok: 0, bad: 0 };
      entry[rating] += Number(n);
      counts.set(page_id, entry);
    }
    return { pageViews, counts };
  }
}
