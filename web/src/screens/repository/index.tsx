import { ok } from '../../api/client';
import { oneOfParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { ErrorPanel, Loading } from '../../components/status';
import { useApp } from '../../context';
import { Link, useLocation } from '../../router';
import type { ScreenProps } from '../../routes';
import { useLoad } from '../../use-load';
import { DependenciesTab } from './Dependencies';
import { DriftTab } from './Drift';
import { ExportsTab } from './Exports';
import { ExposuresTab } from './Exposures';
import { GraphTab } from './Graph';
import { OverviewTab } from './Overview';

/**
 * Repository detail (issue 31): the repository's facts and latest scan, then its dependencies,
 * dependency graph, drift history, exposures and exports, one section at a time. The active
 * section is `tab` in the URL; a section's filters and page sit next to it under the API's
 * parameter names, so any view can be shared.
 */
export type RepositoryDetail = Ok<'/api/v1/repositories/{repositoryId}'>;

const TABS = ['overview', 'dependencies', 'graph', 'drift', 'exposures', 'exports'] as const;
type Tab = (typeof TABS)[number];
const LABELS: Record<Tab, string> = {
  overview: 'Overview and scan',
  dependencies: 'Dependencies',
  graph: 'Dependency graph',
  drift: 'Drift history',
  exposures: 'Exposures',
  exports: 'SBOM and CBOM',
};

export default function RepositoryScreen({ params }: ScreenProps) {
  const repositoryId = params.repositoryId ?? '';
  const { search } = useLocation();
  const tab = oneOfParam(search, 'tab', TABS) ?? 'overview';
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/repositories/{repositoryId}', {
          params: { path: { repositoryId } },
        }),
      ),
    repositoryId,
  );
  return (
    <section aria-labelledby="screen-title">
      <p class="crumbs">
        <Link href="/repositories">Repositories</Link>
      </p>
      <h1 id="screen-title">{result.state === 'ok' ? result.data.fullName : 'Repository'}</h1>
      {result.state === 'loading' && <Loading label="Loading the repository" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && (
        <>
          <Tabs repositoryId={repositoryId} active={tab} />
          <TabBody tab={tab} repository={result.data} />
        </>
      )}
    </section>
  );
}

function Tabs({ repositoryId, active }: { repositoryId: string; active: Tab }) {
  const { principal } = useApp();
  const base = `/repositories/${encodeURIComponent(repositoryId)}`;
  const shown = TABS.filter(
    (tab) =>
      tab !== 'exports' ||
      principal.features.has('sbom_export') ||
      principal.features.has('quantum'),
  );
  return (
    <nav class="tabs" aria-label="Repository sections">
      <ul>
        {shown.map((tab) => (
          <li key={tab}>
            <Link
              href={tab === 'overview' ? base : `${base}?tab=${tab}`}
              aria-current={tab === active ? 'page' : undefined}
            >
              {LABELS[tab]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function TabBody({ tab, repository }: { tab: Tab; repository: RepositoryDetail }) {
  const id = repository.repositoryId;
  switch (tab) {
    case 'dependencies':
      return <DependenciesTab repositoryId={id} />;
    case 'graph':
      return <GraphTab repositoryId={id} />;
    case 'drift':
      return <DriftTab repositoryId={id} />;
    case 'exposures':
      return <ExposuresTab repositoryId={id} />;
    case 'exports':
      return <ExportsTab repositoryId={id} />;
    default:
      return <OverviewTab repository={repository} />;
  }
}
