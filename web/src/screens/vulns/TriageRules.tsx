import { useState } from 'preact/hooks';
import { done, ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import { oneOfParam } from '../../api/query-state';
import { ECOSYSTEMS, RULE_STATUSES } from '../../api/triage';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import { ErrorPanel } from '../../components/status';
import type { Column } from '../../components/VirtualTable';
import { allows, type Role, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link } from '../../router';
import { TriageRuleForm } from './TriageRuleForm';
import { VexPanel } from './VexPanel';

/** Standing triage decisions: the list, revoking one, creating one, and VEX in and out. */
type Rule = Ok<'/api/v1/triage-rules'>['items'][number];

const ACTIVE = ['true', 'false'] as const;
const WRITE_ROLES: readonly Role[] = ['member'];

export default function TriageRules() {
  const { api, principal } = useApp();
  const [round, setRound] = useState(0);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const canWrite = allows(principal, { roles: WRITE_ROLES });
  const changed = () => setRound((n) => n + 1);

  const revoke = async (rule: Rule) => {
    setProblem(null);
    try {
      await done(
        api.client.DELETE('/api/v1/triage-rules/{triageRuleId}', {
          params: { path: { triageRuleId: rule.triageRuleId } },
        }),
      );
      changed();
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  const columns = ruleColumns(canWrite, revoke);

  return (
    <>
      <PagedList<Rule>
        key={round}
        title="Triage rules"
        intro={problem && <ErrorPanel problem={problem} />}
        filters={[
          { kind: 'select', key: 'status', label: 'Decision', options: RULE_STATUSES },
          { kind: 'select', key: 'ecosystem', label: 'Ecosystem', options: ECOSYSTEMS },
          { kind: 'select', key: 'active', label: 'Live', options: ACTIVE },
        ]}
        load={(client, { search, take, skip }) => {
          const active = oneOfParam(search, 'active', ACTIVE);
          return ok(
            client.client.GET('/api/v1/triage-rules', {
              params: {
                query: {
                  take,
                  skip,
                  status: oneOfParam(search, 'status', RULE_STATUSES) ?? undefined,
                  ecosystem: oneOfParam(search, 'ecosystem', ECOSYSTEMS) ?? undefined,
                  active: active === null ? undefined : active === 'true',
                },
              },
            }),
          );
        }}
        columns={columns}
        rowKey={(row) => row.triageRuleId}
        empty="No triage rules match."
      />
      {canWrite && <TriageRuleForm onCreated={changed} />}
      <VexPanel canImport={canWrite} onImported={changed} />
    </>
  );
}

function ruleColumns(canWrite: boolean, revoke: (rule: Rule) => void): Column<Rule>[] {
  return [
    {
      header: 'Vulnerability',
      width: '1.3fr',
      render: (row) => (
        <Link href={`/vulnerabilities/${encodeURIComponent(row.vulnerability)}`}>
          {row.vulnerability}
        </Link>
      ),
    },
    { header: 'Package', width: '1.5fr', render: (row) => row.purl },
    { header: 'Range', render: (row) => row.versionRange ?? 'every version' },
    {
      header: 'Decision',
      width: '1.3fr',
      render: (row) => `${row.status}${row.justification ? ` (${row.justification})` : ''}`,
    },
    {
      header: 'Exposures',
      width: '0.8fr',
      render: (row) => (
        <Link href={`/exposures?triageRuleId=${encodeURIComponent(row.triageRuleId)}`}>
          {row.exposureCount}
        </Link>
      ),
    },
    {
      header: 'State',
      render: (row) =>
        row.active ? `live${row.expiresAtUtc ? ` to ${dateTime(row.expiresAtUtc)}` : ''}` : 'ended',
    },
    {
      header: 'Action',
      width: '0.8fr',
      render: (row) =>
        canWrite && row.active ? (
          <button
            type="button"
            class="secondary small"
            aria-label={`Revoke the rule for ${row.vulnerability} in ${row.packageName}`}
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
