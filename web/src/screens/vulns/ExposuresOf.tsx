import { ok } from '../../api/client';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { count } from '../../format';
import { Link } from '../../router';
import { useLoad } from '../../use-load';

/** The first page of the tenant's exposures to one vulnerability, linking to the full list. */
export function ExposuresOf({ vulnerabilityId }: { vulnerabilityId: string }) {
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/vulnerability-exposures', {
          params: { query: { vulnerabilityId, take: 20 } },
        }),
      ),
    vulnerabilityId,
  );
  if (result.state === 'loading') return <Loading />;
  if (result.state === 'error') {
    return <ErrorPanel problem={result.problem} onRetry={result.reload} />;
  }
  if (result.data.items.length === 0) return <Empty>None of your repositories is exposed.</Empty>;
  return (
    <>
      <div class="table-scroll">
        <table class="plain">
          <caption>Exposures (first {count(result.data.items.length)})</caption>
          <thead>
            <tr>
              <th scope="col">Package</th>
              <th scope="col">Repository</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {result.data.items.map((row) => (
              <tr key={row.exposureId}>
                <td>
                  <Link href={`/exposures/${encodeURIComponent(row.exposureId)}`}>
                    {row.packageName}@{row.version ?? row.resolution}
                  </Link>
                </td>
                <td>{row.repositoryId}</td>
                <td>{row.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <Link href={`/exposures?vulnerabilityId=${encodeURIComponent(vulnerabilityId)}`}>
          All {count(result.data.totalEstimate)} in the exposures list
        </Link>
      </p>
    </>
  );
}
