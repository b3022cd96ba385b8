import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { type Column, VirtualTable } from '../../components/VirtualTable';
import { count, percent } from '../../format';
import { Link } from '../../router';
import { useLoad } from '../../use-load';
import { TlsEndpoints } from './TlsEndpoints';

/**
 * Post-quantum readiness: the tenant's summary (GET /api/v1/dashboards/global, its `quantum`
 * part: findings by classification, certificates, TLS verdicts), the repositories least ready
 * first (each links to its findings, certificates and CBOM) and the watched TLS endpoints.
 */
type Readiness = NonNullable<Ok<'/api/v1/dashboards/global'>['quantum']>;
type RepositoryReadiness = Readiness['repositories']['items'][number];

const readinessText = (share: number | null) =>
  share === null ? 'no assets yet' : `${percent(share)} ready`;

const REPOSITORY_COLUMNS: readonly Column<RepositoryReadiness>[] = [
  {
    header: 'Repository',
    width: '2fr',
    render: (row) => (
      <Link href={`/quantum/repositories/${encodeURIComponent(row.repositoryId)}`}>{row.name}</Link>
    ),
  },
  { header: 'Readiness', render: (row) => readinessText(row.readiness) },
  { header: 'Unresolved', align: 'end', render: (row) => count(row.findings.unresolved) },
  { header: 'Weak', align: 'end', render: (row) => count(row.findings.byClassification.weak) },
  {
    header: 'Certificates',
    align: 'end',
    render: (row) => count(row.certificates.total),
  },
];

export default function Quantum() {
  const result = useLoad(
    (api) => ok(api.client.GET('/api/v1/dashboards/global')).then((d) => d.quantum),
    'quantum',
  );
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Quantum readiness</h1>
      {result.state === 'loading' && <Loading label="Loading the readiness" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' &&
        (result.data === null ? (
          <Empty>The plan has no quantum readiness.</Empty>
        ) : (
          <Summary readiness={result.data} />
        ))}
      <TlsEndpoints />
    </section>
  );
}

function Summary({ readiness }: { readiness: Readiness }) {
  const byClass = readiness.findings.byClassification;
  const tls = readiness.tlsEndpoints.byVerdict;
  return (
    <>
      <p class="lead">
        <strong>{readinessText(readiness.readiness)}</strong>: {count(readiness.assets.ready)} of{' '}
        {count(readiness.assets.total)} cryptographic assets are hybrid, quantum-safe or use a
        post-quantum key exchange.
      </p>
      <div class="grid two">
        <section class="panel" aria-labelledby="q-findings">
          <h2 id="q-findings">Findings by classification</h2>
          <dl class="facts">
            <dt>Unresolved</dt>
            <dd>{count(readiness.findings.unresolved)}</dd>
            <dt>weak</dt>
            <dd>{count(byClass.weak)}</dd>
            <dt>deprecated-2030</dt>
            <dd>{count(byClass.deprecated2030)}</dd>
            <dt>disallowed-2035</dt>
            <dd>{count(byClass.disallowed2035)}</dd>
            <dt>hybrid</dt>
            <dd>{count(byClass.hybrid)}</dd>
            <dt>quantum-safe</dt>
            <dd>{count(byClass.quantumSafe)}</dd>
          </dl>
        </section>
        <section class="panel" aria-labelledby="q-certs">
          <h2 id="q-certs">Certificates and TLS endpoints</h2>
          <dl class="facts">
            <dt>Certificates</dt>
            <dd>
              {count(readiness.certificates.total)} ({count(readiness.certificates.weak)} weak,{' '}
              {count(readiness.certificates.quantumVulnerable)} quantum-vulnerable)
            </dd>
            <dt>Expiring in 30 days</dt>
            <dd>{count(readiness.certificates.expiringWithin30Days)}</dd>
            <dt>Expired</dt>
            <dd>{count(readiness.certificates.expired)}</dd>
            <dt>TLS endpoints</dt>
            <dd>{count(readiness.tlsEndpoints.total)}</dd>
            <dt>Verdicts</dt>
            <dd>
              {count(tls.vulnerable)} vulnerable, {count(tls.hybrid)} hybrid, {count(tls.pqKex)}{' '}
              pq-kex, {count(tls.quantumSafe)} quantum-safe, {count(tls.unreachable)} unreachable,{' '}
              {count(tls.refused)} refused, {count(tls.notProbed)} not probed
            </dd>
          </dl>
        </section>
      </div>
      <section class="panel" aria-labelledby="q-repositories">
        <h2 id="q-repositories">Repositories, least ready first</h2>
        {readiness.repositories.items.length === 0 ? (
          <Empty>No repository has a quantum inventory yet: scan one.</Empty>
        ) : (
          <>
            <VirtualTable
              label="Repositories by readiness"
              rows={readiness.repositories.items}
              columns={REPOSITORY_COLUMNS}
              rowKey={(row) => row.repositoryId}
              height={Math.min(480, 36 * readiness.repositories.items.length + 4)}
            />
            {readiness.repositories.truncated && (
              <p class="muted">
                The {count(readiness.repositories.items.length)} least ready of{' '}
                {count(readiness.repositories.total)}.
              </p>
            )}
          </>
        )}
      </section>
    </>
  );
}
