import type { PageFeedbackRow } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import { now } from '../../ids.js';
import type { Urls } from '../../urls.js';
import type { ContentService } from '../content/service.js';
import { findById, walk } from '../content/tree.js';
import type { InsightsRepository } from './repository.js';
import { feedbackScore, type Rating } from './score.js';

export type Period = 'last_week' | 'last_month' | 'last_year';
const PERIOD_DAYS: Readonly<Record<Period, number>> = {
  last_week: 7,
  last_month: 30,
  last_year: 365,
};

/**
 * Content insights (docs/insights.md): page views and visitors' ratings of pages, and per page
 * of the space's current revision its views and feedback score. The published site (issue 7)
 * records through the same methods.
 */
export class InsightsService {
  constructor(
    private readonly repo: InsightsRepository,
    private readonly content: ContentService,
    private readonly urls: Urls,
  ) {}

  /** A visitor's rating of a page of the current revision; replaces their earlier one. */
  async rate(spaceId: string, pageId: string, visitorId: string, rating: Rating) {
    const revision = await this.requireDocument(spaceId, pageId);
    const at = now();
    const { created, row } = await this.repo.putFeedback({
      space_id: spaceId,
      page_id: pageId,
      visitor_id: visitorId,
      rating,
      revision_id: revision,
      created_at: at,
      updated_at: at,
    });
    return { created, feedback: this.present(row) };
  }

  async feedback(spaceId: string, pageId: string, visitorId: string) {
    const row = await this.repo.findFeedback(spaceId, pageId, visitorId);
    if (row === undefined) {
      throw new AppError(
        404,
        `No feedback from visitor ${JSON.stringify(visitorId)} on page ${JSON.stringify(pageId)}`,
      );
    }
    return this.present(row);
  }

  /** Counts a view of a document page of the current revision (per day; see docs/insights.md). */
  async trackView(spaceId: string, pageId: string): Promise<void> {
    await this.requireDocument(spaceId, pageId);
    await this.repo.countView(spaceId, pageId, now().slice(0, 10));
  }

  /** Every document page of the current revision, in reading order, with views and score. */
  async contentAnalytics(spaceId: string, period?: Period) {
    const since =
      period === undefined
        ? undefined
        : new Date(Date.now() - PERIOD_DAYS[period] * 86_400_000).toISOString();
    const [revision, totals] = await Promise.all([
      this.content.revisionFor(spaceId, { kind: 'space' }),
      this.repo.totals(spaceId, since),
    ]);
    const pages = [];
    for (const { page, path } of walk(revision.pages)) {
      if (page.type !== 'document') continue;
      const parentPath = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
      pages.push({
        // The entry's page without its children: they have entries of their own.
        page: this.content.presentPage(spaceId, page, parentPath, undefined, false),
        pageViews: totals.pageViews.get(page.id) ?? 0,
        feedbacks: feedbackScore(totals.counts.get(page.id) ?? { good: 0, ok: 0, bad: 0 }),
      });
    }
    return { pages };
  }

  private async requireDocument(spaceId: string, pageId: string): Promise<string> {
    const revision = await this.content.revisionFor(spaceId, { kind: 'space' });
    const found = findById(revision.pages, pageId);
    if (found === undefined || found.page.type !== 'document') throw notFound('page', pageId);
    return revision.id;
  }

  private present(row: PageFeedbackRow) {
    return {
      object: 'page-feedback' as const,
      visitorId: row.visitor_id,
      rating: row.rating,
      createdAt: row.updated_at,
      revision: row.revision_id,
      urls: {
        location: `${this.urls.space(row.space_id)}/pages/${row.page_id}/feedbacks/${row.visitor_id}`,
      },
    };
  }
}
