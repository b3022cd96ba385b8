import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { oneOfParam, textParam } from '../../api/query-state';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import { ErrorPanel } from '../../components/status';
import type { Column } from '../../components/VirtualTable';
import { holds, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link } from '../../router';
import { useAction } from '../../use-action';
import { ALERT_KINDS, ALERT_STATUSES, SEVERITIES } from './vocab';

/**
 * The alerts list with the API's filters (status, severity, kind, repositoryId, from, to in the
 * URL). Acknowledging is the state machine's only move (open -> acknowledged), offered to
 * members and above on open alerts; the row then shows the alert the API answered with.
 */
type Alert = Ok<'/api/v1/alerts'>['items'][number];

export default function Alerts() {
  const { api, principal } = useApp();
  const [answered, setAnswered] = useState<Record<string, Alert>>({});
  const action = useAction();
  const canAcknowledge = holds(principal, 'member');

  const acknowledge = async (alert: Alert) => {
    const updated = await action.run(() =>
      ok(
        api.client.PATCH('/api/v1/alerts/{alertId}', {
          params: { path: { alertId: alert.alertId } },
          body: { status: 'acknowledged' },
        }),
      ),
    );
    if (updated) setAnswered((all) => ({ ...all, [updated.alertId]: updated }));
  };
  const current = (row: Alert) => answered[row.alertId] ?? row;

  const columns: readonly Column<Alert>[] = [
    { header: 'Alert', width: '2.4fr', render: (row) => row.title },
    { header: 'Severity', render: (row) => row.severity ?? 'none' },
    { header: 'Kind', width: '1.4fr', render: (row) => row.kind },
    { header: 'Rule', width: '1.2fr', render: (row) => row.ruleName },
    { header: 'Raised', width: '1.4fr', render: (row) => dateTime(row.raisedAtUtc) },
    {
      header: 'Status',
      width: '1.4fr',
      render: (row) => {
        const alert = current(row);
        if (alert.status !== 'open' || !canAcknowledge) return alert.status;
        return (
          <button
            type="button"
            class="small"
            disabled={action.busy}
            aria-label={`Acknowledge: ${alert.title}`}
            onClick={() => acknowledge(alert)}
          >
            Acknowledge
          </button>
        );
      },
    },
  ];

  return (
    <PagedList<Alert>
      title="Alerts"
      intro={
        <>
          <p>
            <Link href="/alerts/rules">Alert rules</Link> decide what raises an alert and where it
            is delivered.
          </p>
          {action.problem && <ErrorPanel problem={action.problem} />}
        </>
      }
      filters={[
        { kind: 'select', key: 'status', label: 'Status', options: ALERT_STATUSES },
        { kind: 'select', key: 'severity', label: 'Severity', options: SEVERITIES },
        { kind: 'select', key: 'kind', label: 'Kind', options: ALERT_KINDS },
      ]}
      load={(client, { search, take, skip }) =>
        ok(
          client.client.GET('/api/v1/alerts', {
            params: {
              query: {
                take,
                skip,
                status: oneOfParam(search, 'status', ALERT_STATUSES) ?? undefined,
                severity: oneOfParam(search, 'severity', SEVERITIES) ?? undefined,
                kind: oneOfParam(search, 'kind', ALERT_KINDS) ?? undefined,
                repositoryId: textParam(search, 'repositoryId') ?? undefined,
                from: textParam(search, 'from') ?? undefined,
                to: textParam(search, 'to') ?? undefined,
              },
            },
          }),
        )
      }
      columns={columns}
      rowKey={(row) => row.alertId}
      empty="No alerts match these filters."
    />
  );
}
