import { useState } from 'preact/hooks';
import { done, ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { type Column, VirtualTable } from '../../components/VirtualTable';
import { allows, useApp } from '../../context';
import { dateTime } from '../../format';
import { useLoad } from '../../use-load';

/**
 * The watched TLS endpoints with their latest verdict (the observation's state), and "Probe
 * now" for members and up (202: queued; the verdict appears once the probe ran).
 */
type Endpoint = Ok<'/api/v1/quantum/tls-endpoints'>['items'][number];

const PROBERS = ['member', 'admin', 'owner'] as const;

export function TlsEndpoints() {
  const { api, principal } = useApp();
  const result = useLoad((api) => ok(api.client.GET('/api/v1/quantum/tls-endpoints')), 'tls');
  const [notice, setNotice] = useState('');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const canProbe = allows(principal, { feature: 'quantum', roles: PROBERS });

  const probe = async (endpoint: Endpoint) => {
    setProblem(null);
    try {
      await done(
        api.client.POST('/api/v1/quantum/tls-endpoints/{endpointId}/probe', {
          params: { path: { endpointId: endpoint.endpointId } },
        }),
      );
      setNotice(`Probe of ${endpoint.host}:${endpoint.port} queued.`);
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const columns: Column<Endpoint>[] = [
    { header: 'Endpoint', width: '2fr', render: (row) => `${row.host}:${row.port}` },
    {
      header: 'Verdict',
      render: (row) => row.latestObservation?.state ?? 'not probed',
    },
    { header: 'Observed', width: '1.4fr', render: (row) => dateTime(row.lastProbedAtUtc) },
    {
      header: 'Reason',
      width: '2fr',
      render: (row) => row.latestObservation?.verdictReason ?? '',
    },
    ...(canProbe
      ? [
          {
            header: 'Action',
            render: (row: Endpoint) => (
              <button
                type="button"
                class="secondary"
                aria-label={`Probe now ${row.host}:${row.port}`}
                onClick={() => probe(row)}
              >
                Probe now
              </button>
            ),
          },
        ]
      : []),
  ];

  return (
    <section class="panel" aria-labelledby="q-tls">
      <h2 id="q-tls">TLS endpoints</h2>
      <p role="status" aria-live="polite">
        {notice}
      </p>
      {problem && <ErrorPanel problem={problem} />}
      {result.state === 'loading' && <Loading label="Loading the endpoints" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' &&
        (result.data.items.length === 0 ? (
          <Empty>No TLS endpoint is watched (POST /api/v1/quantum/tls-endpoints).</Empty>
        ) : (
          <VirtualTable
            label="TLS endpoints"
            rows={result.data.items}
            columns={columns}
            rowKey={(row) => row.endpointId}
            height={Math.min(480, 36 * result.data.items.length + 4)}
          />
        ))}
    </section>
  );
}
