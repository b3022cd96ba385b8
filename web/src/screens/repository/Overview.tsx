import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { ErrorPanel, Loading } from '../../components/status';
import { useApp } from '../../context';
import { count, dateTime, decimal } from '../../format';
import { useLoad } from '../../use-load';
import type { RepositoryDetail } from './index';
import { ScanPanel } from './Scan';

/** The repository's facts, its risk summary and its latest scan (with the live log). */
type RiskSummary = Ok<'/api/v1/repositories/{repositoryId}/risk-summary'>;

export function OverviewTab({ repository }: { repository: RepositoryDetail }) {
  // A finished scan changes the facts and the summary: read both again, in place.
  const [refresh, setRefresh] = useState(0);
  return (
    <div class="grid two">
      <Facts initial={repository} refresh={refresh} />
      <Risk repositoryId={repository.repositoryId} refresh={refresh} />
      <ScanPanel
        repositoryId={repository.repositoryId}
        onFinished={() => setRefresh((n) => n + 1)}
      />
    </div>
  );
}

function Facts({ initial, refresh }: { initial: RepositoryDetail; refresh: number }) {
  const { api } = useApp();
  const [r, setR] = useState(initial);
  useEffect(() => {
    if (refresh === 0) return;
    const path = { repositoryId: initial.repositoryId };
    ok(api.client.GET('/api/v1/repositories/{repositoryId}', { params: { path } })).then(
      setR,
      () => {},
    );
  }, [api, refresh]);
  const rows: [string, string][] = [
    ['Name', r.name],
    ['Provider', r.provider],
    ['Default branch', r.defaultBranch],
    ['Clone URL', r.cloneUrl],
    ['Business criticality', r.businessCriticality ?? 'not set'],
    ['Lifecycle', r.lifecycleStatus],
    ['Dependencies', count(r.dependencyCount)],
    ['Last scanned', dateTime(r.lastScannedAtUtc)],
    [
      'Active scan',
      r.activeScan ? `${r.activeScan.state} since ${dateTime(r.activeScan.queuedAtUtc)}` : 'none',
    ],
    ['Deploy key', r.hasDeployKey ? 'stored' : 'none'],
    ['Imported', dateTime(r.createdAtUtc)],
  ];
  return (
    <div class="panel">
      <h2>Facts</h2>
      <dl class="fact-rows">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {r.webUrl && (
          <div>
            <dt>Web</dt>
            <dd>
              <a href={r.webUrl} rel="noreferrer noopener" target="_blank">
                {r.webUrl}
              </a>
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}

function Risk({ repositoryId, refresh }: { repositoryId: string; refresh: number }) {
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/repositories/{repositoryId}/risk-summary', {
          params: { path: { repositoryId } },
        }),
      ),
    `${repositoryId}|${refresh}`,
  );
  return (
    <div class="panel">
      <h2>Risk summary</h2>
      {result.state === 'loading' && <Loading label="Loading the risk summary" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && <RiskBody risk={result.data} />}
    </div>
  );
}

function RiskBody({ risk }: { risk: RiskSummary }) {
  const v = risk.vulnerabilities.bySeverity;
  const rows: [string, string][] = [
    [
      'Dependencies',
      `${count(risk.dependencies.total)} (${count(risk.dependencies.direct)} direct, ${count(risk.dependencies.transitive)} transitive)`,
    ],
    [
      'Open vulnerabilities',
      risk.vulnerabilities.available
        ? `${count(risk.vulnerabilities.open)}: ${count(v.critical)} critical, ${count(v.high)} high, ${count(v.medium)} medium, ${count(v.low)} low`
        : 'not matched yet',
    ],
    [
      'Drift',
      risk.drift.available
        ? `${decimal(risk.drift.libyears)} libyears; ${count(risk.drift.outdated)} outdated (${count(risk.drift.majorBehind)} major behind)`
        : 'not measured yet',
    ],
    [
      'Deprecated, yanked, end of life',
      `${count(risk.drift.deprecated)}, ${count(risk.drift.yanked)}, ${count(risk.drift.endOfLife)}`,
    ],
    [
      'Health',
      risk.health.available && risk.health.averageScore !== null
        ? `average ${decimal(risk.health.averageScore)}; ${count(risk.health.below50)} below 50`
        : 'not scored yet',
    ],
    ['Policy', `${risk.policy.status}; ${count(risk.policy.openViolations)} open violations`],
  ];
  return (
    <dl class="fact-rows">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
