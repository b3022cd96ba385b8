import { ok } from '../../api/client';
import { oneOfParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { Link } from '../../router';

/**
 * This repository's vulnerability exposures (GET /vulnerability-exposures?repositoryId=...)
 * with their import-level reachability and why; filters are the route's own.
 */
type Exposure = Ok<'/api/v1/vulnerability-exposures'>['items'][number];

const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
const STATUSES = [
  'open',
  'investigating',
  'affected',
  'not_affected',
  'false_positive',
  'accepted_risk',
  'fixed',
] as const;
const REACHABILITIES = ['imported', 'used_by_tooling', 'not_imported', 'unknown'] as const;

const COLUMNS: readonly Column<Exposure>[] = [
  { header: 'Advisory', width: '1.3fr', render: (row) => row.canonicalId },
  {
    header: 'Package',
    width: '1.5fr',
    render: (row) => (
      <Link href={`/packages/${encodeURIComponent(row.packageId)}`}>
        {row.packageName} {row.version ?? ''}
      </Link>
    ),
  },
  { header: 'Severity', render: (row) => row.severity ?? 'unknown' },
  { header: 'Status', render: (row) => row.status.replace('_', ' ') },
  {
    header: 'Reachability',
    width: '2fr',
    render: (row) => {
      const evidence = row.reachabilityEvidence;
      if (evidence) return `${row.reachability}: ${evidence.file}:${evidence.line}`;
      return row.reachabilityReason
        ? `${row.reachability}: ${row.reachabilityReason}`
        : row.reachability;
    },
  },
  {
    header: 'Fixed in',
    render: (row) => (row.fixedVersions.length > 0 ? row.fixedVersions.join(', ') : 'no fix'),
  },
];

export function ExposuresTab({ repositoryId }: { repositoryId: string }) {
  return (
    <PagedList<Exposure>
      title="Exposures"
      section={{ scope: repositoryId }}
      filters={[
        { kind: 'select', key: 'severity', label: 'Severity', options: SEVERITIES },
        { kind: 'select', key: 'status', label: 'Status', options: STATUSES },
        { kind: 'select', key: 'reachability', label: 'Reachability', options: REACHABILITIES },
      ]}
      load={(api, { search, take, skip }) =>
        ok(
          api.client.GET('/api/v1/vulnerability-exposures', {
            params: {
              query: {
                repositoryId,
                take,
                skip,
                severity: oneOfParam(search, 'severity', SEVERITIES) ?? undefined,
                status: oneOfParam(search, 'status', STATUSES) ?? undefined,
                reachability: oneOfParam(search, 'reachability', REACHABILITIES) ?? undefined,
              },
            },
          }),
        )
      }
      columns={COLUMNS}
      rowKey={(row) => row.exposureId}
      empty="No exposures match these filters."
    />
  );
}
