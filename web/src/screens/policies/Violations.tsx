import { ok } from '../../api/client';
import { oneOfParam, textParam } from '../../api/query-state';
import { SEVERITIES, VIOLATION_STATUSES } from '../../api/triage';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { dateTime } from '../../format';
import { Link } from '../../router';

/** Policy violations with the list route's filters; each opens its triage and exception. */
type Violation = Ok<'/api/v1/policy-violations'>['items'][number];

const COLUMNS: readonly Column<Violation>[] = [
  {
    header: 'Package',
    width: '1.6fr',
    render: (row) => (
      <Link href={`/violations/${encodeURIComponent(row.violationId)}`}>
        {row.packageName}@{row.version ?? 'unpinned'}
      </Link>
    ),
  },
  {
    header: 'Policy',
    width: '1.6fr',
    render: (row) => (
      <Link href={`/policies/${encodeURIComponent(row.policyId)}`}>{row.policyName}</Link>
    ),
  },
  { header: 'Severity', width: '0.8fr', render: (row) => row.severity },
  { header: 'Status', width: '0.9fr', render: (row) => row.status },
  { header: 'Blocking', width: '0.7fr', render: (row) => (row.blocking ? 'yes' : 'no') },
  { header: 'Detected', width: '1.3fr', render: (row) => dateTime(row.detectedAtUtc) },
];

export default function Violations() {
  return (
    <PagedList<Violation>
      title="Violations"
      intro={
        <p class="actions">
          <Link href="/policies">Policies</Link>
          <Link href="/policy-exceptions">Exceptions</Link>
        </p>
      }
      filters={[
        { kind: 'select', key: 'severity', label: 'Severity', options: SEVERITIES },
        { kind: 'select', key: 'status', label: 'Status', options: VIOLATION_STATUSES },
        { kind: 'search', key: 'policyId', label: 'Policy id' },
        { kind: 'search', key: 'repositoryId', label: 'Repository id' },
      ]}
      load={(api, { search, take, skip }) =>
        ok(
          api.client.GET('/api/v1/policy-violations', {
            params: {
              query: {
                take,
                skip,
                severity: oneOfParam(search, 'severity', SEVERITIES) ?? undefined,
                status: oneOfParam(search, 'status', VIOLATION_STATUSES) ?? undefined,
                policyId: textParam(search, 'policyId') ?? undefined,
                repositoryId: textParam(search, 'repositoryId') ?? undefined,
                packageId: textParam(search, 'packageId') ?? undefined,
              },
            },
          }),
        )
      }
      columns={COLUMNS}
      rowKey={(row) => row.violationId}
      empty="No violations match these filters."
    />
  );
}
