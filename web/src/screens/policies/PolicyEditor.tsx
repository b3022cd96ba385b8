import { useEffect, useRef, useState } from 'preact/hooks';
import { done, ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import { textParam } from '../../api/query-state';
import { ECOSYSTEMS, POLICY_ACTIONS, SEVERITIES } from '../../api/triage';
import type { Ok } from '../../api/types';
import { ErrorPanel, Loading } from '../../components/status';
import { allows, useApp } from '../../context';
import { Link, navigate, useLocation } from '../../router';
import type { ScreenProps } from '../../routes';
import { useLoad } from '../../use-load';
import { DryRunResult } from './DryRunResult';
import { POLICY_ADMIN } from './Policies';
import { discardDraftOnLeave, dryRunPolicy } from './policy-calls';
import { type DryRun, dryRunKey, EMPTY_FORM, type PolicyForm, policyBody } from './policy-form';

/**
 * A policy's editor, new or stored. Save stays disabled until a dry run of the current
 * condition has been shown. The API dry-runs only stored policies, so a new policy is stored
 * disabled as a draft at its first dry run; Save enables it, Discard deletes it, and so does
 * leaving the editor without saving (another screen, or closing the tab).
 */
type Policy = Ok<'/api/v1/policies/{policyId}'>;

export default function PolicyEditor({ params }: ScreenProps) {
  const policyId = params.policyId ?? null;
  const result = useLoad(
    async (api): Promise<Policy | null> =>
      policyId === null
        ? null
        : ok(api.client.GET('/api/v1/policies/{policyId}', { params: { path: { policyId } } })),
    policyId ?? 'new',
  );
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">
        {policyId === null ? 'New policy' : result.state === 'ok' ? result.data?.name : 'Policy'}
      </h1>
      <p>
        <Link href="/policies">All policies</Link>
      </p>
      {result.state === 'loading' && <Loading />}
      {result.state === 'error' && <ErrorPanel problem={result.problem} onRetry={result.reload} />}
      {result.state === 'ok' && <Editor stored={result.data} />}
    </section>
  );
}

function formOf(policy: Policy | null): PolicyForm {
  if (!policy) return EMPTY_FORM;
  return {
    name: policy.name,
    description: policy.description,
    condition: policy.condition,
    severity: policy.severity,
    action: policy.action,
    enabled: policy.enabled,
    ecosystems: policy.scope.ecosystems.join(', '),
    repositoryIds: policy.scope.repositoryIds.join(', '),
  };
}

function Editor({ stored }: { stored: Policy | null }) {
  const { api, principal } = useApp();
  const saved = textParam(useLocation().search, 'saved') === '1';
  const canWrite = allows(principal, POLICY_ADMIN);
  const [form, setForm] = useState<PolicyForm>(formOf(stored));
  const [draftId, setDraftId] = useState<string | null>(null);
  const [dryRun, setDryRun] = useState<{ key: string; result: DryRun } | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);
  // Set once the draft is saved or deleted: nothing is left to discard when the editor goes.
  const settled = useRef(false);
  useEffect(() => setForm(formOf(stored)), [stored]);
  useEffect(() => discardDraftOnLeave(api, draftId, settled), [api, draftId]);
  const policyId = stored?.policyId ?? draftId;
  const fresh = dryRun !== null && dryRun.key === dryRunKey(form);

  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await step();
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };

  const onDryRun = () =>
    run(async () => {
      const { policyId: id, result } = await dryRunPolicy(api, {
        storedId: stored?.policyId ?? null,
        draftId,
        form,
      });
      if (stored === null) setDraftId(id);
      setDryRun({ key: dryRunKey(form), result });
    });

  const onSave = () =>
    run(async () => {
      if (policyId === null) return;
      const saved = await ok(
        api.client.PATCH('/api/v1/policies/{policyId}', {
          params: { path: { policyId } },
          body: policyBody(form, form.enabled),
        }),
      );
      settled.current = true;
      navigate(`/policies/${encodeURIComponent(saved.policyId)}?saved=1`);
    });

  const onDelete = () =>
    run(async () => {
      if (policyId === null) return;
      await done(
        api.client.DELETE('/api/v1/policies/{policyId}', { params: { path: { policyId } } }),
      );
      settled.current = true;
      navigate('/policies');
    });

  return (
    <>
      {stored && (
        <p class="muted">
          Version {stored.version}.{saved && ' Saved; its evaluation is queued.'}
        </p>
      )}
      <PolicyFields form={form} setForm={setForm} disabled={!canWrite} />
      {canWrite && (
        <EditorActions
          busy={busy}
          canDryRun={form.condition.trim() !== ''}
          canSave={fresh}
          stored={stored !== null}
          deletable={policyId !== null}
          onDryRun={onDryRun}
          onSave={onSave}
          onDelete={onDelete}
        />
      )}
      {canWrite && !fresh && (
        <p class="muted">Run a dry run of the current condition before saving.</p>
      )}
      {stored && <p class="muted">The dry run of a stored policy uses its stored scope.</p>}
      {problem && <ErrorPanel problem={problem} />}
      {dryRun && <DryRunResult result={dryRun.result} stale={!fresh} />}
    </>
  );
}

function PolicyFields({
  form,
  setForm,
  disabled,
}: {
  form: PolicyForm;
  setForm: (form: PolicyForm) => void;
  disabled: boolean;
}) {
  const text = (key: keyof PolicyForm) => (event: Event) => {
    const target = event.currentTarget;
    if (
      target instanceof HTMLInputElement ||
      target instanceof HTMLSelectElement ||
      target instanceof HTMLTextAreaElement
    ) {
      setForm({ ...form, [key]: target.value });
    }
  };
  return (
    <fieldset class="stack" disabled={disabled}>
      <legend>Policy</legend>
      <label for="policy-name">
        Name
        <input id="policy-name" required value={form.name} onInput={text('name')} />
      </label>
      <label for="policy-description">
        Description
        <input id="policy-description" value={form.description} onInput={text('description')} />
      </label>
      <label for="policy-condition">
        Condition (CEL over a dependency's facts)
        <textarea
          id="policy-condition"
          class="code"
          rows={4}
          value={form.condition}
          onInput={text('condition')}
        />
      </label>
      <label for="policy-severity">
        Severity
        <select id="policy-severity" value={form.severity} onChange={text('severity')}>
          {SEVERITIES.map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
      </label>
      <label for="policy-action">
        Action
        <select id="policy-action" value={form.action} onChange={text('action')}>
          {POLICY_ACTIONS.map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
      </label>
      <label for="policy-ecosystems">
        Ecosystems (comma-separated; empty: all of {ECOSYSTEMS.length})
        <input id="policy-ecosystems" value={form.ecosystems} onInput={text('ecosystems')} />
      </label>
      <label for="policy-repositories">
        Repository ids (comma-separated; empty: all)
        <input
          id="policy-repositories"
          value={form.repositoryIds}
          onInput={text('repositoryIds')}
        />
      </label>
      <label for="policy-enabled" class="check">
        <input
          id="policy-enabled"
          type="checkbox"
          checked={form.enabled}
          onChange={(event) => setForm({ ...form, enabled: event.currentTarget.checked })}
        />
        Enabled when saved
      </label>
    </fieldset>
  );
}

function EditorActions(props: {
  busy: boolean;
  canDryRun: boolean;
  canSave: boolean;
  stored: boolean;
  deletable: boolean;
  onDryRun: () => void;
  onSave: () => void;
  onDelete: () => void;
}) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  const deleteLabel = props.stored ? 'Delete policy' : 'Discard draft';
  return (
    <div class="actions">
      <button type="button" disabled={props.busy || !props.canDryRun} onClick={props.onDryRun}>
        Dry run
      </button>
      <button type="button" disabled={props.busy || !props.canSave} onClick={props.onSave}>
        {props.stored ? 'Save changes' : 'Save policy'}
      </button>
      {props.deletable && (
        <button
          type="button"
          class="secondary"
          disabled={props.busy}
          onClick={() => (confirmDelete ? props.onDelete() : setConfirmDelete(true))}
        >
          {confirmDelete
            ? `Confirm: ${deleteLabel.toLowerCase()} with its violations`
            : deleteLabel}
        </button>
      )}
    </div>
  );
}
