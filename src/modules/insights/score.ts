/**
 * The page feedback score of content insights (docs/insights.md). GitBook 0.91 publishes the
 * weights: +1 for `good`, −0.5 for `ok`, −2 for `bad`, so negative ratings weigh more.
 */
export const RATINGS = ['bad', 'ok', 'good'] as const;
export type Rating = (typeof RATINGS)[number];

export const WEIGHTS: Readonly<Record<Rating, number>> = { good: 1, ok: -0.5, bad: -2 };

export interface RatingCounts {
  good: number;
  ok: number;
  bad: number;
}

export interface FeedbackScore extends RatingCounts {
  /** The mean weight of the ratings; 0 without ratings. */
  score: number;
  total: number;
  /** `good` when score > 0, `ok` when it is 0, `bad` when it is below. */
  rating: Rating;
  /** score × total: the sum of the weights, so much-rated pages count for more. */
  ponderedScore: number;
}

export function feedbackScore({ good, ok, bad }: RatingCounts): FeedbackScore {
  const total = good + ok + bad;
  // The sum is exact (every weight is a multiple of 1/2), so its sign decides the rating even
  // where the division below rounds.
  const sum = good * WEIGHTS.good + ok * WEIGHTS.ok + bad * WEIGHTS.bad;
  const score = total === 0 ? 0 : sum / total;
  const rating: Rating = sum > 0 ? 'good' : sum === 0 ? 'ok' : 'bad';
  return { score, total, rating, ponderedScore: sum === 0 ? 0 : sum, good, ok, bad };
}
