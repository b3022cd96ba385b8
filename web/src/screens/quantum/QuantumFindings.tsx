import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { offsetPageInfo, offsetRequest } from '../../api/paging';
import { intParam, oneOfParam } from '../../api/query-state';
import { FilterBar } from '../../components/FilterBar';
import { Pager } from '../../components/PagedList';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { type Column, VirtualTable } from '../../components/VirtualTable';
import { allows, useApp } from '../../context';
import { useLocation } from '../../router';
import { useLoad } from '../../use-load';
import { findingLabel, type QuantumFinding, SEVERITIES } from './labels';
import { TriageForm } from './TriageForm';
import { FINDING_STATUSES, movesFrom } from './triage';

/**
 * A repository's quantum findings: filters `status` and `severity` and `page` (take/skip) in
 * the URL, as the API names them; "Triage" only where a move is allowed and the role may.
 */
const PAGE_SIZE = 50;
const TRIAGERS = ['member', 'admin', 'owner'] as const;

export function QuantumFindings({ repositoryId }: { repositoryId: string }) {
  const { principal } = useApp();
  const { search } = useLocation();
  const [selected, setSelected] = useState<QuantumFinding | null>(null);
  const [notice, setNotice] = useState('');
  const page = intParam(search, 'page', 0);
  const status = oneOfParam(search, 'status', FINDING_STATUSES);
  const severity = oneOfParam(search, 'severity', SEVERITIES);
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/repositories/{repositoryId}/quantum/findings', {
          params: {
            path: { repositoryId },
            query: {
              status: status ?? undefined,
              severity: severity ?? undefined,
              ...offsetRequest(page, PAGE_SIZE),
            },
          },
        }),
      ),
    `quantum-findings|${repositoryId}|${page}|${status}|${severity}`,
  );
  const canTriage = allows(principal, { feature: 'quantum', roles: TRIAGERS });
  const columns: Column<QuantumFinding>[] = [
    { header: 'Where', width: '2fr', render: findingLabel },
    {
      header: 'Algorithm',
      render: (row) =>
        `${row.algorithm}${row.keySize ? ` ${row.keySize}` : ''}${row.curve ? ` ${row.curve}` : ''}`,
    },
    { header: 'Use', render: (row) => row.primitive },
    { header: 'Classification', render: (row) => row.classification },
    { header: 'Severity', render: (row) => row.severity },
    { header: 'Status', render: (row) => row.status.replace('_', ' ') },
    ...(canTriage
      ? [
          {
            header: 'Action',
            render: (row: QuantumFinding) =>
              movesFrom(row.status).length === 0 ? (
                <span class="muted">none</span>
              ) : (
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Triage ${findingLabel(row)}`}
                  onClick={() => {
                    setNotice('');
                    setSelected(row);
                  }}
                >
                  Triage
                </button>
              ),
          },
        ]
      : []),
  ];
  return (
    <section class="panel" aria-labelledby="q-repo-findings">
      <h2 id="q-repo-findings">Findings</h2>
      <FilterBar
        label="Finding filters"
        fields={[
          { kind: 'select', key: 'status', label: 'Status', options: FINDING_STATUSES },
          { kind: 'select', key: 'severity', label: 'Severity', options: SEVERITIES },
        ]}
      />
      <p role="status" aria-live="polite">
        {notice}
      </p>
      {selected && (
        <TriageForm
          repositoryId={repositoryId}
          finding={selected}
          onCancel={() => setSelected(null)}
          onSaved={(saved) => {
            setSelected(null);
            setNotice(`${findingLabel(saved)} is now ${saved.status.replace('_', ' ')}.`);
            result.reload();
          }}
        />
      )}
      {result.state === 'loading' && <Loading label="Loading the findings" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' &&
        (result.data.items.length === 0 ? (
          <Empty>No quantum findings match these filters.</Empty>
        ) : (
          <>
            <VirtualTable
              label="Quantum findings"
              rows={result.data.items}
              columns={columns}
              rowKey={(row) => row.findingId}
              height={Math.min(480, 36 * result.data.items.length + 4)}
            />
            <Pager info={offsetPageInfo(result.data)} />
          </>
        ))}
    </section>
  );
}
