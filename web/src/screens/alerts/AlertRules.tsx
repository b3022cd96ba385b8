import { useState } from 'preact/hooks';
import { done, ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { Empty, ErrorPanel, Loading } from '../../components/status';
import { allows, useApp } from '../../context';
import { dateTime } from '../../format';
import { Link } from '../../router';
import { useAction } from '../../use-action';
import { useLoad } from '../../use-load';
import { RuleForm } from './RuleForm';

/**
 * Alert rules: the list, and for admins on a plan with alert_rules, create, edit and delete.
 * Every change reloads the list from the API.
 */
type Rule = Ok<'/api/v1/alert-rules'>['items'][number];

export default function AlertRules() {
  const { api, principal } = useApp();
  const canWrite = allows(principal, { feature: 'alert_rules', roles: ['admin'] });
  const canDelete = allows(principal, { roles: ['admin'] });
  const result = useLoad((client) => ok(client.client.GET('/api/v1/alert-rules')), 'rules');
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const action = useAction();

  const remove = async (rule: Rule) => {
    if (!window.confirm(`Delete the alert rule "${rule.name}"?`)) return;
    const removed = await action.run(() =>
      done(
        api.client.DELETE('/api/v1/alert-rules/{alertRuleId}', {
          params: { path: { alertRuleId: rule.alertRuleId } },
        }),
      ).then(() => true),
    );
    if (removed) result.reload();
  };
  const saved = () => {
    setEditing(null);
    result.reload();
  };

  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Alert rules</h1>
      <p>
        <Link href="/alerts">Back to alerts</Link>
      </p>
      {canWrite && editing === null && (
        <button type="button" onClick={() => setEditing('new')}>
          New alert rule
        </button>
      )}
      {editing !== null && (
        <RuleForm
          rule={editing === 'new' ? null : editing}
          onSaved={saved}
          onCancel={() => setEditing(null)}
        />
      )}
      {action.problem && <ErrorPanel problem={action.problem} />}
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && result.data.items.length === 0 && (
        <Empty>No alert rules yet: nothing raises alerts.</Empty>
      )}
      {result.state === 'ok' && result.data.items.length > 0 && (
        <div class="table-scroll">
          <table class="data">
            <caption class="visually-hidden">Alert rules</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Enabled</th>
                <th scope="col">Minimum severity</th>
                <th scope="col">Dedupe (min)</th>
                <th scope="col">Channels</th>
                <th scope="col">Updated</th>
                {(canWrite || canDelete) && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {result.data.items.map((rule) => (
                <tr key={rule.alertRuleId}>
                  <td>{rule.name}</td>
                  <td>{rule.kind}</td>
                  <td>{rule.enabled ? 'yes' : 'no'}</td>
                  <td>{rule.filters.minSeverity ?? 'any'}</td>
                  <td>{rule.dedupeWindowMinutes}</td>
                  <td>{rule.channels.length}</td>
                  <td>{dateTime(rule.updatedAtUtc)}</td>
                  {(canWrite || canDelete) && (
                    <td class="actions">
                      {canWrite && (
                        <button
                          type="button"
                          class="small secondary"
                          aria-label={`Edit ${rule.name}`}
                          onClick={() => setEditing(rule)}
                        >
                          Edit
                        </button>
                      )}
                      {canDelete && (
                        <button
                          type="button"
                          class="small danger"
                          aria-label={`Delete ${rule.name}`}
                          disabled={action.busy}
                          onClick={() => remove(rule)}
                        >
                          Delete
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
