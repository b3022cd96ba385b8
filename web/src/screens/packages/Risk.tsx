import type { ComponentChildren } from 'preact';
import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { dateTime } from '../../format';
import { Link } from '../../router';
import { useLoad } from '../../use-load';
import { shown } from './Health';

/** A package's risk indicators, replacement candidates and the repositories using it. */
type Risks = Ok<'/api/v1/packages/{packageId}/risk-indicators'>;
type Replacements = Ok<'/api/v1/packages/{packageId}/replacement-candidates'>;
type Usage = Ok<'/api/v1/packages/{packageId}/usage'>;

function Section<T>({
  title,
  result,
  body,
}: {
  title: string;
  result: ReturnType<typeof useLoad<T>>;
  body: (data: T) => ComponentChildren;
}) {
  return (
    <section class="panel section" aria-label={title}>
      <h2>{title}</h2>
      {result.state === 'loading' && <Loading label={`Loading ${title.toLowerCase()}`} />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && body(result.data)}
    </section>
  );
}

export function RiskSection({ packageId }: { packageId: string }) {
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/packages/{packageId}/risk-indicators', {
          params: { path: { packageId } },
        }),
      ),
    packageId,
  );
  return (
    <Section
      title="Risk indicators"
      result={result}
      body={(data: Risks) => <RiskList risks={data} />}
    />
  );
}

function RiskList({ risks }: { risks: Risks }) {
  if (risks.items.length === 0)
    return <Empty>No risk indicators (evaluated {dateTime(risks.evaluatedAtUtc)}).</Empty>;
  return (
    <ul class="cards">
      {risks.items.map((item) => (
        <li key={`${item.kind}-${item.title}`}>
          <strong class={`sev sev-${item.severity}`}>{item.severity}</strong> {item.title}
          <div class="muted">
            {item.kind} · {item.source} · {dateTime(item.observedAtUtc)}
          </div>
          <div class="evidence">{shown(item.evidence)}</div>
        </li>
      ))}
    </ul>
  );
}

export function ReplacementsSection({ packageId }: { packageId: string }) {
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/packages/{packageId}/replacement-candidates', {
          params: { path: { packageId } },
        }),
      ),
    packageId,
  );
  return (
    <Section
      title="Replacement candidates"
      result={result}
      body={(data: Replacements) =>
        data.items.length === 0 ? (
          <Empty>No replacement candidates.</Empty>
        ) : (
          <ul class="cards">
            {data.items.map((item) => (
              <li key={`${item.ecosystem}-${item.name}`}>
                {item.packageId ? (
                  <Link href={`/packages/${encodeURIComponent(item.packageId)}`}>{item.name}</Link>
                ) : (
                  <strong>{item.name}</strong>
                )}{' '}
                <span class="tag">{item.confidence} confidence</span>
                <div>{item.reason}</div>
                <div class="muted">
                  {item.sources.join(', ')}: {item.evidence}
                </div>
              </li>
            ))}
          </ul>
        )
      }
    />
  );
}

export function UsageSection({ packageId }: { packageId: string }) {
  const result = useLoad(
    (api) =>
      ok(api.client.GET('/api/v1/packages/{packageId}/usage', { params: { path: { packageId } } })),
    packageId,
  );
  return (
    <Section
      title="Used by your repositories"
      result={result}
      body={(data: Usage) =>
        data.items.length === 0 ? (
          <Empty>No repository uses it.</Empty>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
          <section class="table-scroll" aria-label="Repositories using it" tabIndex={0}>
            <table class="data">
              <thead>
                <tr>
                  <th scope="col">Repository</th>
                  <th scope="col">Version</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Latest stable</th>
                  <th scope="col">Drift</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((item) => (
                  <tr key={`${item.repositoryId}-${item.file}-${item.version ?? ''}`}>
                    <td>
                      <Link
                        href={`/repositories/${encodeURIComponent(item.repositoryId)}?tab=dependencies`}
                      >
                        {item.repositoryName}
                      </Link>
                    </td>
                    <td>{item.version ?? item.resolution}</td>
                    <td>{item.direct ? 'direct' : 'transitive'}</td>
                    <td>{item.drift.latestStableVersion ?? 'unknown'}</td>
                    <td>
                      {item.drift.state === 'measured'
                        ? `${item.drift.majorBehind ?? 'unknown'} major, ${item.drift.minorBehind ?? 'unknown'} minor behind`
                        : item.drift.state.replace(/_/g, ' ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )
      }
    />
  );
}
