import { useSignal } from '@preact/signals';
import { loadInsights, type Range, type SiteInsights } from '../api/insights';
import { useAsync } from './shell/useAsync';

const RANGES: { value: Range; label: string }[] = [
  { value: 'last24Hours', label: 'Last 24 hours' },
  { value: 'last7Days', label: 'Last 7 days' },
  { value: 'last30Days', label: 'Last 30 days' },
  { value: 'last3Months', label: 'Last 3 months' },
  { value: 'lastYear', label: 'Last year' },
];

/** A site's page views over time (an inline SVG plot) and its top searches (docs/insights.md). */
export function Insights({ org, siteId }: { org: string; siteId: string }) {
  const range = useSignal<Range>('last7Days');
  const reloads = useSignal(0);
  const data = useAsync(
    () => loadInsights(org, siteId, range.value),
    [org, siteId, range.value, reloads.value],
  );
  return (
    <section class="page insights" data-testid="insights">
      <div class="insights-controls">
        <h2>Insights</h2>
        <label>
          Range{' '}
          <select
            value={range.value}
            data-testid="insights-range"
            onChange={(event) => {
              range.value = (event.target as HTMLSelectElement).value as Range;
            }}
          >
            {RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          class="button"
          data-testid="insights-refresh"
          onClick={() => {
            reloads.value += 1;
          }}
        >
          Refresh
        </button>
      </div>
      {data.status === 'loading' && (
        <p class="muted" role="status">
          Loading…
        </p>
      )}
      {data.status === 'failed' && (
        <p class="error" role="alert">
          {data.error}
        </p>
      )}
      {data.status === 'done' && <Figures insights={data.value} />}
    </section>
  );
}

function Figures({ insights }: { insights: SiteInsights }) {
  return (
    <>
      <p class="insights-totals">
        <span>
          Page views: <strong data-testid="insights-views">{insights.totalViews}</strong>
        </span>{' '}
        <span>
          Visitors: <strong data-testid="insights-visitors">{insights.visitors}</strong>
        </span>
      </p>
      <Plot points={insights.views} />
      <h3>Top searches</h3>
      {insights.searches.length === 0 ? (
        <p class="muted" data-testid="insights-no-searches">
          No searches in this range.
        </p>
      ) : (
        <ol class="insights-searches" data-testid="insights-searches">
          {insights.searches.map((s) => (
            <li key={s.query}>
              <span>{s.query}</span> <span class="muted">{s.count}</span>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

const WIDTH = 640;
const HEIGHT = 180;
const PAD = 24;

/** Page views per bucket as bars, with the largest count on the axis; no chart library. */
function Plot({ points }: { points: { at: string; count: number }[] }) {
  const max = Math.max(1, ...points.map((p) => p.count));
  const slot = (WIDTH - PAD) / Math.max(1, points.length);
  const label = (at: string) =>
    at.slice(5, points.length <= 24 && at.slice(11, 13) !== '00' ? 16 : 10);
  return (
    <svg
      class="insights-plot"
      data-testid="insights-plot"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`Page views: ${points.map((p) => `${label(p.at)} ${p.count}`).join(', ')}`}
    >
      <line x1={PAD} y1={HEIGHT - PAD} x2={WIDTH} y2={HEIGHT - PAD} class="insights-axis" />
      <text x={0} y={12} class="insights-label">
        {max}
      </text>
      {points.map((p, i) => {
        const h = ((HEIGHT - 2 * PAD) * p.count) / max;
        return (
          <rect
            key={p.at}
            x={PAD + i * slot + slot * 0.15}
            y={HEIGHT - PAD - h}
            width={slot * 0.7}
            height={h}
            class="insights-bar"
            data-count={p.count}
          >
            <title>{`${label(p.at)}: ${p.count}`}</title>
          </rect>
        );
      })}
      <text x={PAD} y={HEIGHT - 6} class="insights-label">
        {points[0] ? label(points[0].at) : ''}
      </text>
      <text x={WIDTH} y={HEIGHT - 6} text-anchor="end" class="insights-label">
        {points.at(-1) ? label(points.at(-1)?.at ?? '') : ''}
      </text>
    </svg>
  );
}
