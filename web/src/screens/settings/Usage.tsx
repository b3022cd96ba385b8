import { ok } from '../../api/client';
import { ErrorPanel, Loading } from '../../components/status';
import { count, dateTime } from '../../format';
import { useLoad } from '../../use-load';

/** The tenant's usage against its plan's limits, as GET /api/v1/tenants/current/usage says. */
const FIGURES = [
  ['repositories', 'Repositories'],
  ['dependencies', 'Dependencies'],
  ['scansThisMonth', 'Scans this month'],
  ['apiCallsThisWindow', 'API calls this window'],
  ['apiCallsThisMonth', 'API calls this month'],
  ['advisoriesMatched', 'Advisories matched'],
  ['storageBytes', 'Storage (bytes)'],
] as const;

export function Usage() {
  const result = useLoad((api) => ok(api.client.GET('/api/v1/tenants/current/usage')), 'usage');
  return (
    <section id="usage" aria-labelledby="usage-title" class="settings-section">
      <h2 id="usage-title">Usage</h2>
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && (
        <table class="data">
          <caption>
            Plan {result.data.plan}; month from {dateTime(result.data.monthStartUtc)}; window{' '}
            {result.data.windowSeconds} s from {dateTime(result.data.windowStartUtc)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">Used</th>
              <th scope="col">Limit</th>
            </tr>
          </thead>
          <tbody>
            {FIGURES.map(([key, label]) => (
              <tr key={key}>
                <th scope="row">{label}</th>
                <td>{count(result.data[key].used)}</td>
                <td>{result.data[key].limit === null ? 'none' : count(result.data[key].limit)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
