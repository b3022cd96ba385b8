import { ok } from '../../api/client';
import { oneOfParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { FilterBar } from '../../components/FilterBar';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { type Column, VirtualTable } from '../../components/VirtualTable';
import { useLocation } from '../../router';
import { useLoad } from '../../use-load';
import { CLASSIFICATIONS } from './labels';

/** Certificates in a repository's files and on its linked TLS endpoints (not paged by the API). */
type Certificate = Ok<'/api/v1/repositories/{repositoryId}/quantum/certificates'>['items'][number];

const PROVENANCES = ['repository-file', 'tls-observation'] as const;

const COLUMNS: readonly Column<Certificate>[] = [
  { header: 'Subject', width: '2fr', render: (row) => row.subject },
  {
    header: 'Key',
    render: (row) =>
      `${row.keyAlgorithm}${row.keySize ? ` ${row.keySize}` : ''}${row.curve ? ` ${row.curve}` : ''}`,
  },
  { header: 'Signature', render: (row) => row.signatureAlgorithm },
  { header: 'Classification', render: (row) => row.classification },
  {
    header: 'Expires',
    render: (row) =>
      row.expired ? <strong class="warn">expired</strong> : row.notAfter.slice(0, 10),
  },
  { header: 'Where', width: '1.6fr', render: (row) => row.file ?? row.provenance },
];

export function Certificates({ repositoryId }: { repositoryId: string }) {
  const { search } = useLocation();
  const classification = oneOfParam(search, 'classification', CLASSIFICATIONS);
  const provenance = oneOfParam(search, 'provenance', PROVENANCES);
  const result = useLoad(
    (api) =>
      ok(
        api.client.GET('/api/v1/repositories/{repositoryId}/quantum/certificates', {
          params: {
            path: { repositoryId },
            query: {
              classification: classification ?? undefined,
              provenance: provenance ?? undefined,
            },
          },
        }),
      ),
    `certificates|${repositoryId}|${classification}|${provenance}`,
  );
  return (
    <section class="panel" aria-labelledby="q-certificates">
      <h2 id="q-certificates">Certificates</h2>
      <FilterBar
        label="Certificate filters"
        fields={[
          {
            kind: 'select',
            key: 'classification',
            label: 'Classification',
            options: CLASSIFICATIONS,
          },
          { kind: 'select', key: 'provenance', label: 'Provenance', options: PROVENANCES },
        ]}
      />
      {result.state === 'loading' && <Loading label="Loading the certificates" />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' &&
        (result.data.items.length === 0 ? (
          <Empty>No certificates match.</Empty>
        ) : (
          <VirtualTable
            label="Certificates"
            rows={result.data.items}
            columns={COLUMNS}
            rowKey={(row) => row.certificateId}
            height={Math.min(480, 36 * result.data.items.length + 4)}
          />
        ))}
    </section>
  );
}
