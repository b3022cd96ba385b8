import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import type { Ok } from '../../api/types';
import { ErrorPanel } from '../../components/status';
import { holds, useApp } from '../../context';
import { useAction } from '../../use-action';
import { useLoad } from '../../use-load';
import { ALERT_KINDS, SEVERITIES } from './vocab';

/** Create (rule null) or edit an alert rule; the API's 400 is shown as it answers. */
type Rule = Ok<'/api/v1/alert-rules'>['items'][number];

export function RuleForm({
  rule,
  onSaved,
  onCancel,
}: {
  rule: Rule | null;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { api } = useApp();
  const [name, setName] = useState(rule?.name ?? '');
  const [kind, setKind] = useState(rule?.kind ?? ALERT_KINDS[0]);
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [minSeverity, setMinSeverity] = useState(rule?.filters.minSeverity ?? '');
  const [dedupe, setDedupe] = useState(String(rule?.dedupeWindowMinutes ?? 1440));
  const [channels, setChannels] = useState<readonly string[]>(rule?.channels ?? []);
  const action = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      name,
      kind,
      enabled,
      filters: {
        repositoryIds: rule?.filters.repositoryIds ?? [],
        ecosystems: rule?.filters.ecosystems ?? [],
        minSeverity: minSeverity === '' ? null : minSeverity,
      },
      // Sent as typed; a value that is not a whole number is the API's 400 to explain.
      dedupeWindowMinutes: Number(dedupe),
      channels: [...channels],
    };
    const saved = await action.run(() =>
      rule
        ? ok(
            api.client.PATCH('/api/v1/alert-rules/{alertRuleId}', {
              params: { path: { alertRuleId: rule.alertRuleId } },
              body,
            }),
          )
        : ok(api.client.POST('/api/v1/alert-rules', { body })),
    );
    if (saved) onSaved();
  };

  return (
    <form
      class="panel form"
      aria-label={rule ? 'Edit alert rule' : 'New alert rule'}
      onSubmit={submit}
    >
      <h2>{rule ? `Edit ${rule.name}` : 'New alert rule'}</h2>
      <label for="rule-name">
        Name
        <input
          id="rule-name"
          value={name}
          required
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <label for="rule-kind">
        Kind
        <select id="rule-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {ALERT_KINDS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <label for="rule-severity">
        Minimum severity
        <select
          id="rule-severity"
          value={minSeverity}
          onChange={(e) => setMinSeverity(e.currentTarget.value)}
        >
          <option value="">Any</option>
          {SEVERITIES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <label for="rule-dedupe">
        Dedupe window (minutes)
        <input
          id="rule-dedupe"
          type="number"
          min="0"
          step="1"
          value={dedupe}
          onInput={(e) => setDedupe(e.currentTarget.value)}
        />
      </label>
      <label for="rule-enabled" class="check">
        <input
          id="rule-enabled"
          type="checkbox"
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        Enabled
      </label>
      <Channels chosen={channels} onChange={setChannels} />
      {action.problem && <ErrorPanel problem={action.problem} />}
      <div class="row">
        <button type="submit" disabled={action.busy}>
          {rule ? 'Save rule' : 'Create rule'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The integrations the rule's alerts are delivered to (GET /api/v1/integrations, members up). */
function Channels({
  chosen,
  onChange,
}: {
  chosen: readonly string[];
  onChange: (next: readonly string[]) => void;
}) {
  const { principal } = useApp();
  const readable = holds(principal, 'member');
  const result = useLoad(
    (api) =>
      readable
        ? ok(api.client.GET('/api/v1/integrations'))
        : Promise.resolve({ items: [], total: 0 }),
    'channels',
  );
  if (result.state === 'loading') return null;
  if (result.state === 'error') return <ErrorPanel problem={result.problem} />;
  if (result.data.items.length === 0) {
    return <p class="muted">No integrations to deliver to ({chosen.length} channels kept).</p>;
  }
  return (
    <fieldset class="channels">
      <legend>Deliver to</legend>
      {result.data.items.map((item) => (
        <label key={item.integrationId} for={`channel-${item.integrationId}`} class="check">
          <input
            id={`channel-${item.integrationId}`}
            type="checkbox"
            checked={chosen.includes(item.integrationId)}
            onChange={(e) =>
              onChange(
                e.currentTarget.checked
                  ? [...chosen, item.integrationId]
                  : chosen.filter((id) => id !== item.integrationId),
              )
            }
          />
          {item.name} ({item.status})
        </label>
      ))}
    </fieldset>
  );
}
