import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type FeedbackScore,
  feedbackScore,
  type RatingCounts,
} from '../../src/modules/insights/score.js';

describe('feedbackScore: the published weights (+1 good, -0.5 ok, -2 bad)', () => {
  const rows: {
    rule: string;
    counts: RatingCounts;
    expected: Pick<FeedbackScore, 'score' | 'total' | 'rating' | 'ponderedScore'>;
  }[] = [
    {
      rule: 'no ratings: score 0, rating ok, nothing to ponder',
      counts: { good: 0, ok: 0, bad: 0 },
      expected: { score: 0, total: 0, rating: 'ok', ponderedScore: 0 },
    },
    {
      rule: 'one of each: (1 - 0.5 - 2) / 3 = -0.5, bad',
      counts: { good: 1, ok: 1, bad: 1 },
      expected: { score: -0.5, total: 3, rating: 'bad', ponderedScore: -1.5 },
    },
    {
      rule: '2 good + 1 bad cancel out: score 0, rating ok',
      counts: { good: 2, ok: 0, bad: 1 },
      expected: { score: 0, total: 3, rating: 'ok', ponderedScore: 0 },
    },
    {
      rule: 'only good: score 1, good',
      counts: { good: 7, ok: 0, bad: 0 },
      expected: { score: 1, total: 7, rating: 'good', ponderedScore: 7 },
    },
    {
      rule: 'a single good rating',
      counts: { good: 1, ok: 0, bad: 0 },
      expected: { score: 1, total: 1, rating: 'good', ponderedScore: 1 },
    },
    {
      rule: 'only ok is bad: -0.5 is below zero',
      counts: { good: 0, ok: 4, bad: 0 },
      expected: { score: -0.5, total: 4, rating: 'bad', ponderedScore: -2 },
    },
    {
      rule: 'only bad: score -2',
      counts: { good: 0, ok: 0, bad: 5 },
      expected: { score: -2, total: 5, rating: 'bad', ponderedScore: -10 },
    },
    {
      rule: '1 good + 2 ok cancel out: score 0, rating ok',
      counts: { good: 1, ok: 2, bad: 0 },
      expected: { score: 0, total: 3, rating: 'ok', ponderedScore: 0 },
    },
    {
      rule: 'good + ok: (3 - 1) / 5 = 0.4, good',
      counts: { good: 3, ok: 2, bad: 0 },
      expected: { score: 0.4, total: 5, rating: 'good', ponderedScore: 2 },
    },
  ];

  for (const row of rows) {
    test(row.rule, () => {
      const result = feedbackScore(row.counts);
      assert.deepEqual(result, { ...row.counts, ...row.expected });
      assert.ok(!Object.is(result.score, -0), 'score is never -0');
      assert.ok(!Object.is(result.ponderedScore, -0), 'ponderedScore is never -0');
    });
  }

  test('large counts: 1,000,000 good and 499,999 bad is barely good, pondered exactly 2', () => {
    const result = feedbackScore({ good: 1_000_000, ok: 0, bad: 499_999 });
    assert.equal(result.total, 1_499_999);
    assert.equal(result.rating, 'good');
    assert.ok(result.score > 0);
    assert.ok(Math.abs(result.score - 2 / 1_499_999) < 1e-18);
    assert.equal(result.ponderedScore, 2);
  });

  test('large counts: 1,000,000 good and 500,000 bad cancel out exactly', () => {
    const result = feedbackScore({ good: 1_000_000, ok: 0, bad: 500_000 });
    assert.equal(result.score, 0);
    assert.equal(result.rating, 'ok');
    assert.equal(result.ponderedScore, 0);
  });

  test('large counts: 1,000,000 good, 1 ok and 499,999 bad is just bad', () => {
    const result = feedbackScore({ good: 1_000_000, ok: 1, bad: 499_999 });
    assert.equal(result.total, 1_500_000);
    assert.equal(result.rating, 'good');
    assert.equal(result.ponderedScore, 1.5);
    const worse = feedbackScore({ good: 1_000_000, ok: 5, bad: 499_999 });
    assert.equal(worse.rating, 'bad');
    assert.equal(worse.ponderedScore, -0.5);
    assert.ok(worse.score < 0);
  });

  test('counts near 2^50 still rate by the exact sign of the weighted sum', () => {
    const big = 2 ** 50;
    const result = feedbackScore({ good: big + 2, ok: 0, bad: big / 2 });
    assert.equal(result.ponderedScore, 2);
    assert.equal(result.rating, 'good');
    assert.ok(result.score > 0);
  });
});

describe('feedbackScore: properties', () => {
  const count = fc.nat({ max: 1_000_000_000 });
  const counts = fc.record({ good: count, ok: count, bad: count });
  const smallCounts = fc.record({
    good: fc.nat({ max: 50 }),
    ok: fc.nat({ max: 50 }),
    bad: fc.nat({ max: 50 }),
  });
  const anyCounts = fc.oneof(counts, smallCounts);
  const sign = (n: number) => (n > 0 ? 'good' : n === 0 ? 'ok' : 'bad');

  test('the rating agrees with the sign of the score', () => {
    fc.assert(
      fc.property(anyCounts, (c) => {
        const result = feedbackScore(c);
        assert.equal(result.rating, sign(result.score));
        assert.equal(result.rating, sign(result.ponderedScore));
      }),
      { numRuns: 1000 },
    );
  });

  test('ponderedScore is score × total (within rounding)', () => {
    fc.assert(
      fc.property(anyCounts, (c) => {
        const { score, total, ponderedScore } = feedbackScore(c);
        const tolerance = 1e-9 * Math.max(1, Math.abs(ponderedScore), total);
        assert.ok(
          Math.abs(ponderedScore - score * total) <= tolerance,
          `${ponderedScore} vs ${score} × ${total}`,
        );
        assert.equal(ponderedScore, c.good - 0.5 * c.ok - 2 * c.bad);
      }),
      { numRuns: 1000 },
    );
  });

  test('total is the sum of the counts, which are echoed back', () => {
    fc.assert(
      fc.property(anyCounts, (c) => {
        const result = feedbackScore(c);
        assert.equal(result.total, c.good + c.ok + c.bad);
        assert.deepEqual({ good: result.good, ok: result.ok, bad: result.bad }, { ...c });
      }),
      { numRuns: 500 },
    );
  });

  test('the score lies between -2 and 1', () => {
    fc.assert(
      fc.property(anyCounts, (c) => {
        const { score } = feedbackScore(c);
        assert.ok(score >= -2 && score <= 1, String(score));
      }),
      { numRuns: 500 },
    );
  });

  test('adding one good rating never lowers the score', () => {
    fc.assert(
      fc.property(anyCounts, (c) => {
        const before = feedbackScore(c);
        const after = feedbackScore({ ...c, good: c.good + 1 });
        assert.ok(after.score >= before.score, `${before.score} → ${after.score}`);
        assert.ok(after.ponderedScore > before.ponderedScore);
      }),
      { numRuns: 1000 },
    );
  });

  test('adding one bad rating never raises the score', () => {
    fc.assert(
      fc.property(anyCounts, (c) => {
        const before = feedbackScore(c);
        const after = feedbackScore({ ...c, bad: c.bad + 1 });
        assert.ok(after.score <= before.score, `${before.score} → ${after.score}`);
        assert.ok(after.ponderedScore < before.ponderedScore);
      }),
      { numRuns: 1000 },
    );
  });
});
