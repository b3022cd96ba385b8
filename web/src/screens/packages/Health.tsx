import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { TimeChart } from '../../components/TimeChart';
import { count, dateTime, decimal, unixSeconds } from '../../format';
import { useLoad } from '../../use-load';

/**
 * The health score (the tenant's weights) with each signal as its evidence: value, score,
 * weight, points, source and when observed; and the daily score history as a chart.
 */
type Health = Ok<'/api/v1/packages/{packageId}/health'>;
type History = Ok<'/api/v1/packages/{packageId}/health/history'>;

const HISTORY_DAYS = 90;

/** A signal's raw value as text (the API types it loosely: a number, string, list...). */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return 'unknown';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return decimal(value, 2);
  return JSON.stringify(value);
}

export function HealthSection({ packageId }: { packageId: string }) {
  const result = useLoad(async (api) => {
    const path = { packageId };
    const [health, history] = await Promise.all([
      ok(api.client.GET('/api/v1/packages/{packageId}/health', { params: { path } })),
      ok(
        api.client.GET('/api/v1/packages/{packageId}/health/history', {
          params: { path, query: { take: HISTORY_DAYS } },
        }),
      ),
    ]);
    return { health, history };
  }, packageId);
  return (
    <div class="panel section">
      <h2>Health</h2>
      {result.state === 'loading' && <Loading label="Loading the health score" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && <HealthBody {...result.data} />}
    </div>
  );
}

function HealthBody({ health, history }: { health: Health; history: History }) {
  const points = [...history.items].reverse();
  return (
    <>
      <p>
        <span class="score">{health.score === null ? 'no score' : `${health.score} / 100`}</span>{' '}
        <span class="muted">
          {health.status === 'found' ? '' : `(registry data ${health.status.replace('_', ' ')}) `}
          computed {dateTime(health.computedAtUtc)}
        </span>
      </p>
      {points.length === 0 ? (
        <Empty>No health history yet.</Empty>
      ) : (
        <TimeChart
          title={`Health score, last ${count(HISTORY_DAYS)} days`}
          times={points.map((p) => unixSeconds(p.computedAtUtc))}
          series={[
            { label: 'Score', values: points.map((p) => p.score), color: '#047857' },
            {
              label: 'Score with default weights',
              values: points.map((p) => p.defaultWeightsScore),
              color: '#1d4ed8',
            },
          ]}
        />
      )}
      <h3>Evidence: the signals behind the score</h3>
      {health.signals.length === 0 ? (
        <Empty>No signals observed yet.</Empty>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
        <section class="table-scroll" aria-label="Health signals" tabIndex={0}>
          <table class="data">
            <thead>
              <tr>
                <th scope="col">Signal</th>
                <th scope="col">Value</th>
                <th scope="col">Score</th>
                <th scope="col">Weight</th>
                <th scope="col">Points</th>
                <th scope="col">Source and evidence</th>
              </tr>
            </thead>
            <tbody>
              {health.signals.map((s) => (
                <tr key={s.signal}>
                  <th scope="row">{s.signal}</th>
                  <td>{shown(s.value)}</td>
                  <td class="num">{s.score === null ? 'n/a' : decimal(s.score, 2)}</td>
                  <td class="num">{decimal(s.weight, 2)}</td>
                  <td class="num">{s.points === null ? 'n/a' : decimal(s.points, 1)}</td>
                  <td>
                    {s.detail}{' '}
                    <span class="muted">
                      ({s.source}, {dateTime(s.observedAtUtc)})
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
