import { count } from '../../format';
import type { DryRun } from './policy-form';

/** What a dry run found: the counts, then the would-be violations the API listed. */
export function DryRunResult({ result, stale }: { result: DryRun; stale: boolean }) {
  const { counts } = result;
  return (
    <section aria-labelledby="dry-run-title" class="panel">
      <h2 id="dry-run-title">Dry run{stale ? ' (of an earlier condition)' : ''}</h2>
      <p role="status">
        {count(counts.violations)} violations ({count(counts.new)} new),{' '}
        {count(counts.wouldResolve)} would resolve; {count(counts.dependenciesEvaluated)}{' '}
        dependencies in {count(counts.repositoriesEvaluated)} repositories evaluated.
      </p>
      {result.violations.length > 0 && (
        <div class="table-scroll">
          <table class="plain">
            <caption>
              Would-be violations{result.truncated ? ` (first ${result.violations.length})` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Package</th>
                <th scope="col">Repository</th>
                <th scope="col">Today</th>
              </tr>
            </thead>
            <tbody>
              {result.violations.map((row) => (
                <tr key={`${row.repositoryId}-${row.packageId}-${row.version}`}>
                  <td>
                    {row.packageName}@{row.version ?? 'unpinned'}
                  </td>
                  <td>{row.repositoryId}</td>
                  <td>{row.existingStatus ?? 'new'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
