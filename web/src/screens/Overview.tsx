import { useEffect } from 'preact/hooks';
import { ok } from '../api/client';
import type { Ok } from '../api/types';
import { Empty, ErrorPanel, Loading } from '../components/status';
import { TimeChart } from '../components/TimeChart';
import { useApp } from '../context';
import { count, dateTime, decimal, percent, unixSeconds } from '../format';
import { Link } from '../router';
import { useLoad } from '../use-load';

/**
 * The Overview: the global dashboard's numbers, trends of exposures and libyear, the most
 * drifted and most exposed repositories, malicious packages, CRA clocks due and quantum
 * readiness. Every number links to the list behind it (routes.ts; the query names the API's
 * filter), so a person goes from "12 critical" to those twelve.
 */
type Dashboard = Ok<'/api/v1/dashboards/global'>;
type Trends = Ok<'/api/v1/analytics/trends'>;
type Clocks = Ok<'/api/v1/cra/clocks/due'>;

const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

export default function Overview() {
  const { principal } = useApp();
  const withCra = principal.features.has('cra');
  const result = useLoad(async (api) => {
    const [dashboard, trends, clocks] = await Promise.all([
      ok(api.client.GET('/api/v1/dashboards/global')),
      ok(api.client.GET('/api/v1/analytics/trends')),
      withCra
        ? ok(api.client.GET('/api/v1/cra/clocks/due', { params: { query: { withinHours: 168 } } }))
        : Promise.resolve(null),
    ]);
    performance.mark('driftwatch:overview-data');
    return { dashboard, trends, clocks };
  }, 'overview');
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Overview</h1>
      {result.state === 'loading' && <Loading label="Loading the overview" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && <OverviewBody {...result.data} />}
    </section>
  );
}

function OverviewBody({
  dashboard,
  trends,
  clocks,
}: {
  dashboard: Dashboard;
  trends: Trends;
  clocks: Clocks | null;
}) {
  // After the body's first paint: the end of the first load that bench/web-overview.ts reads.
  useEffect(() => {
    performance.mark('driftwatch:overview-rendered');
  }, []);
  if (dashboard.repositories.total === 0) {
    return (
      <Empty>
        No repositories yet. Import one through the API (POST /api/v1/repositories/import) and its
        first scan fills this page.
      </Empty>
    );
  }
  return (
    <>
      <p class="muted">Generated {dateTime(dashboard.generatedAtUtc)}</p>
      <Headline dashboard={dashboard} />
      <div class="grid two">
        <TrendCharts trends={trends} />
      </div>
      <div class="grid two">
        <TopList
          title="Most drifted repositories"
          rows={dashboard.topRepositories.byLibyear.map((row) => ({
            id: row.repositoryId,
            name: row.name,
            value: `${decimal(row.libyear)} libyears`,
          }))}
        />
        <TopList
          title="Most exposed repositories"
          rows={dashboard.topRepositories.byCriticalExposures.map((row) => ({
            id: row.repositoryId,
            name: row.name,
            value: `${count(row.critical)} critical`,
          }))}
        />
      </div>
      <div class="grid two">
        <Breakdown
          title="Open violations by severity"
          values={dashboard.violations.bySeverity}
          href={(severity) => `/violations?severity=${severity}&status=open`}
        />
        {clocks && <ClocksDue clocks={clocks} />}
        <Quantum dashboard={dashboard} />
      </div>
    </>
  );
}

function Stat({
  label,
  value,
  href,
  note,
}: {
  label: string;
  value: string;
  href: string;
  note?: string;
}) {
  return (
    <li class="stat">
      <Link href={href}>
        <span class="stat-value">{value}</span>
        <span class="stat-label">{label}</span>
      </Link>
      {note && <span class="muted">{note}</span>}
    </li>
  );
}

function Headline({ dashboard }: { dashboard: Dashboard }) {
  const severity = dashboard.exposures.bySeverity;
  return (
    <>
      <h2>At a glance</h2>
      <ul class="stats">
        <Stat
          label="Repositories"
          value={count(dashboard.repositories.total)}
          href="/repositories"
        />
        <Stat label="Dependencies" value={count(dashboard.dependencies.total)} href="/packages" />
        <Stat
          label="Unresolved exposures"
          value={count(dashboard.exposures.unresolved)}
          href="/exposures?status=open"
        />
        {SEVERITIES.map((level) => (
          <Stat
            key={level}
            label={`${level} exposures`}
            value={count(severity[level] ?? 0)}
            href={`/exposures?severity=${level}&status=open`}
          />
        ))}
        <Stat
          label="Malicious packages"
          value={count(dashboard.exposures.malicious.unresolved)}
          href="/exposures?kind=malicious"
          note={`in ${count(dashboard.exposures.malicious.repositories)} repositories`}
        />
        <Stat
          label="Open violations"
          value={count(dashboard.violations.open)}
          href="/violations?status=open"
        />
        <Stat label="Open alerts" value={count(dashboard.alerts.open)} href="/alerts?status=open" />
        <Stat
          label="Libyears behind"
          value={decimal(dashboard.drift.libyearTotal)}
          href="/repositories"
        />
        <Stat
          label="Major versions behind"
          value={count(dashboard.drift.majorBehind)}
          href="/packages"
        />
        <Stat
          label="Deprecated packages"
          value={count(dashboard.drift.deprecated)}
          href="/packages"
        />
      </ul>
    </>
  );
}

/** One line per severity; colours hold 3:1 against white (WCAG non-text contrast). */
const SEVERITY_SERIES = [
  { severity: 'critical', label: 'Critical', color: '#b91c1c' },
  { severity: 'high', label: 'High', color: '#c2410c' },
  { severity: 'medium', label: 'Medium', color: '#a16207' },
  { severity: 'low', label: 'Low', color: '#4b5563' },
] as const;

function TrendCharts({ trends }: { trends: Trends }) {
  if (trends.points.length === 0)
    return <Empty>No trend data yet: trends fill in after scans.</Empty>;
  const times = trends.points.map((point) => unixSeconds(point.bucketStartUtc));
  return (
    <>
      <TimeChart
        title="Open exposures by severity over time"
        times={times}
        series={[
          ...SEVERITY_SERIES.map(({ severity, label, color }) => ({
            label,
            // Days rolled up before the split was recorded are gaps, except for critical.
            values: trends.points.map((p) =>
              severity === 'critical'
                ? p.exposuresCriticalOpen
                : (p.exposuresOpenBySeverity?.[severity] ?? null),
            ),
            color,
          })),
          {
            label: 'All open',
            values: trends.points.map((p) => p.exposuresOpen),
            color: '#1d4ed8',
          },
        ]}
      />
      <TimeChart
        title="Libyear over time"
        times={times}
        series={[
          { label: 'Libyears', values: trends.points.map((p) => p.libyear), color: '#047857' },
        ]}
      />
    </>
  );
}

function TopList({
  title,
  rows,
}: {
  title: string;
  rows: { id: string; name: string; value: string }[];
}) {
  return (
    <div class="panel">
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <Empty>None.</Empty>
      ) : (
        <ol class="top">
          {rows.map((row) => (
            <li key={row.id}>
              <Link href={`/repositories/${encodeURIComponent(row.id)}`}>{row.name}</Link>
              <span>{row.value}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Breakdown({
  title,
  values,
  href,
}: {
  title: string;
  values: Record<string, number>;
  href: (key: string) => string;
}) {
  const entries = Object.entries(values).filter(([, value]) => value > 0);
  return (
    <div class="panel">
      <h2>{title}</h2>
      {entries.length === 0 ? (
        <Empty>None open.</Empty>
      ) : (
        <ul class="top">
          {entries.map(([key, value]) => (
            <li key={key}>
              <Link href={href(key)}>{key}</Link>
              <span>{count(value)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ClocksDue({ clocks }: { clocks: Clocks }) {
  const overdue = clocks.items.filter((clock) => clock.overdue).length;
  return (
    <div class="panel">
      <h2>CRA clocks due within 7 days</h2>
      <p>
        <Link href="/cra/clocks?withinHours=168">{count(clocks.items.length)} due</Link>
        {overdue > 0 && <strong class="warn"> · {count(overdue)} overdue</strong>}
      </p>
      <ul class="top">
        {clocks.items.slice(0, 5).map((clock) => (
          <li key={clock.clockId}>
            <span>{clock.kind.replace('_', ' ')}</span>
            <span>{dateTime(clock.dueAtUtc)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Quantum({ dashboard }: { dashboard: Dashboard }) {
  const quantum = dashboard.quantum;
  if (quantum === null) return null;
  return (
    <div class="panel">
      <h2>Quantum readiness</h2>
      <p>
        <Link href="/quantum">
          {quantum.readiness === null
            ? 'No cryptographic assets found yet'
            : `${percent(quantum.readiness)} ready`}
        </Link>
      </p>
      <p class="muted">
        {count(quantum.findings.unresolved)} unresolved findings ·{' '}
        {count(quantum.certificates.quantumVulnerable)} quantum-vulnerable certificates
      </p>
    </div>
  );
}
