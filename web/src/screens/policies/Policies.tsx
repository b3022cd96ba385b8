import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { allows, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link } from '../../router';

/** The tenant's policies; each opens its editor (dry run, save, delete). */
type Policy = Ok<'/api/v1/policies'>['items'][number];

export const POLICY_ADMIN = { feature: 'policies', roles: ['admin', 'owner'] } as const;

const COLUMNS: readonly Column<Policy>[] = [
  {
    header: 'Policy',
    width: '2fr',
    render: (row) => <Link href={`/policies/${encodeURIComponent(row.policyId)}`}>{row.name}</Link>,
  },
  { header: 'Severity', render: (row) => row.severity },
  { header: 'Action', render: (row) => row.action },
  { header: 'Enabled', render: (row) => (row.enabled ? 'yes' : 'no') },
  {
    header: 'Violations',
    render: (row) => (
      <Link href={`/violations?policyId=${encodeURIComponent(row.policyId)}`}>
        Violations<span class="visually-hidden"> of {row.name}</span>
      </Link>
    ),
  },
  { header: 'Changed', width: '1.4fr', render: (row) => dateTime(row.updatedAtUtc) },
];

export default function Policies() {
  const { principal } = useApp();
  return (
    <PagedList<Policy>
      title="Policies"
      intro={
        <p class="actions">
          {allows(principal, POLICY_ADMIN) && <Link href="/policies/new">New policy</Link>}
          <Link href="/violations">Violations</Link>
          <Link href="/policy-exceptions">Exceptions</Link>
        </p>
      }
      load={(api, { take, skip }) =>
        ok(api.client.GET('/api/v1/policies', { params: { query: { take, skip } } }))
      }
      columns={COLUMNS}
      rowKey={(row) => row.policyId}
      empty="No policies yet."
    />
  );
}
