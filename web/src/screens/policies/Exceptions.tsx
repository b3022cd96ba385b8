import { useState } from 'preact/hooks';
import { done, ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import { oneOfParam, textParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import { ErrorPanel } from '../../components/status';
import type { Column } from '../../components/VirtualTable';
import { allows, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link } from '../../router';
import { POLICY_ADMIN } from './Policies';

/** Policy exceptions, active and expired; an admin revokes one (DELETE). */
type PolicyException = Ok<'/api/v1/policy-exceptions'>['items'][number];

const STATUSES = ['active', 'expired'] as const;

export default function Exceptions() {
  const { api, principal } = useApp();
  const [round, setRound] = useState(0);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const canRevoke = allows(principal, POLICY_ADMIN);

  const revoke = async (row: PolicyException) => {
    setProblem(null);
    try {
      await done(
        api.client.DELETE('/api/v1/policy-exceptions/{exceptionId}', {
          params: { path: { exceptionId: row.exceptionId } },
        }),
      );
      setRound((n) => n + 1);
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const columns = exceptionColumns(canRevoke, revoke);

  return (
    <PagedList<PolicyException>
      key={round}
      title="Policy exceptions"
      intro={
        <>
          <p class="muted">Grant an exception from a violation's page.</p>
          {problem && <ErrorPanel problem={problem} />}
        </>
      }
      filters={[
        { kind: 'select', key: 'status', label: 'Status', options: STATUSES },
        { kind: 'search', key: 'policyId', label: 'Policy id' },
      ]}
      load={(client, { search, take, skip }) =>
        ok(
          client.client.GET('/api/v1/policy-exceptions', {
            params: {
              query: {
                take,
                skip,
                status: oneOfParam(search, 'status', STATUSES) ?? undefined,
                policyId: textParam(search, 'policyId') ?? undefined,
                packageId: textParam(search, 'packageId') ?? undefined,
              },
            },
          }),
        )
      }
      columns={columns}
      rowKey={(row) => row.exceptionId}
      empty="No exceptions match."
    />
  );
}

function exceptionColumns(
  canRevoke: boolean,
  revoke: (row: PolicyException) => void,
): Column<PolicyException>[] {
  return [
    {
      header: 'Violation',
      width: '1.2fr',
      render: (row) =>
        row.violationId ? (
          <Link href={`/violations/${encodeURIComponent(row.violationId)}`}>Violation</Link>
        ) : (
          'none'
        ),
    },
    {
      header: 'Policy',
      render: (row) => <Link href={`/policies/${encodeURIComponent(row.policyId)}`}>Policy</Link>,
    },
    { header: 'Scope', width: '1.2fr', render: (row) => row.scope },
    { header: 'Reason', width: '2fr', render: (row) => row.reason },
    { header: 'Status', width: '0.8fr', render: (row) => row.status },
    { header: 'Ends', width: '1.3fr', render: (row) => dateTime(row.expiresAtUtc) },
    {
      header: 'Action',
      width: '0.8fr',
      render: (row) =>
        canRevoke ? (
          <button
            type="button"
            class="secondary small"
            aria-label={`Revoke the exception “${row.reason}”`}
            onClick={() => revoke(row)}
          >
            Revoke
          </button>
        ) : (
          ''
        ),
    },
  ];
}
