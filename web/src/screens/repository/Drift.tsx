import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { TimeChart } from '../../components/TimeChart';
import { count, dateTime, decimal, unixSeconds } from '../../format';
import { useLoad } from '../../use-load';

/**
 * Drift over time: GET .../drift-history (one snapshot per scan, newest first) drawn oldest
 * first as libyears and versions behind, with the same numbers in a table.
 */
type History = Ok<'/api/v1/repositories/{repositoryId}/drift-history'>;

const WINDOW = 100;

export function DriftTab({ repositoryId }: { repositoryId: string }) {
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/repositories/{repositoryId}/drift-history', {
          params: { path: { repositoryId }, query: { take: WINDOW } },
        }),
      ),
    repositoryId,
  );
  return (
    <section aria-labelledby="section-title" class="section">
      <h2 id="section-title">Drift history</h2>
      {result.state === 'loading' && <Loading label="Loading the drift history" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && <DriftBody history={result.data} />}
    </section>
  );
}

function DriftBody({ history }: { history: History }) {
  if (history.items.length === 0) {
    return (
      <Empty>No drift measured yet: each scan adds a point once its packages are known.</Empty>
    );
  }
  // The route answers newest first; the chart wants time ascending.
  const points = [...history.items].reverse();
  const times = points.map((p) => unixSeconds(p.scannedAtUtc));
  return (
    <>
      <div class="grid two">
        <TimeChart
          title="Libyears behind at each scan"
          times={times}
          series={[
            { label: 'Libyears', values: points.map((p) => p.libyearTotal), color: '#047857' },
          ]}
        />
        <TimeChart
          title="Dependencies behind at each scan"
          times={times}
          series={[
            { label: 'Major behind', values: points.map((p) => p.majorBehind), color: '#b91c1c' },
            { label: 'Minor behind', values: points.map((p) => p.minorBehind), color: '#1d4ed8' },
            { label: 'Outdated', values: points.map((p) => p.outdatedCount), color: '#6b21a8' },
          ]}
        />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus */}
      <section class="table-scroll" aria-label="Drift at each scan, scrollable" tabIndex={0}>
        <table class="data">
          <caption>Drift at each scan, newest first (last {count(history.take)} scans)</caption>
          <thead>
            <tr>
              <th scope="col">Scanned</th>
              <th scope="col">Dependencies</th>
              <th scope="col">Outdated</th>
              <th scope="col">Libyears</th>
              <th scope="col">Major / minor / patch behind</th>
              <th scope="col">Deprecated</th>
            </tr>
          </thead>
          <tbody>
            {history.items.map((p) => (
              <tr key={p.scanId}>
                <td>{dateTime(p.scannedAtUtc)}</td>
                <td class="num">{count(p.dependencyCount)}</td>
                <td class="num">{count(p.outdatedCount)}</td>
                <td class="num">{decimal(p.libyearTotal, 2)}</td>
                <td class="num">
                  {count(p.majorBehind)} / {count(p.minorBehind)} / {count(p.patchBehind)}
                </td>
                <td class="num">{count(p.deprecatedCount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
