import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import { localInputToIso, RULE_STATUSES, triageFields, VEX_JUSTIFICATIONS } from '../../api/triage';
import { ErrorPanel } from '../../components/status';
import { useApp } from '../../context';

interface RuleForm {
  vulnerability: string;
  purl: string;
  versionRange: string;
  status: string;
  justification: string;
  reason: string;
  expiresLocal: string;
}

/** Creates a triage rule; the API validates it (422 names the fields) and settles exposures. */
export function TriageRuleForm({ onCreated }: { onCreated: () => void }) {
  const { api } = useApp();
  const [form, setForm] = useState<RuleForm>({
    vulnerability: '',
    purl: '',
    versionRange: '',
    status: 'not_affected',
    justification: '',
    reason: '',
    expiresLocal: '',
  });
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const set = (key: keyof RuleForm) => (event: Event) => {
    const target = event.currentTarget;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) {
      setForm({ ...form, [key]: target.value });
    } else if (target instanceof HTMLTextAreaElement) {
      setForm({ ...form, [key]: target.value });
    }
  };
  const fields = triageFields(form.status);

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    setCreated(null);
    try {
      const rule = await ok(
        api.client.POST('/api/v1/triage-rules', {
          body: {
            vulnerability: form.vulnerability.trim(),
            purl: form.purl.trim() || null,
            versionRange: form.versionRange.trim() || null,
            status: form.status,
            justification: fields.justification ? form.justification || null : null,
            reason: form.reason.trim() || null,
            expiresAtUtc: fields.expiry ? localInputToIso(form.expiresLocal) : null,
          },
        }),
      );
      setCreated(
        `Rule created for ${rule.vulnerability} in ${rule.packageName}; it settled ${rule.exposuresSettled} open exposures.`,
      );
      onCreated();
    } catch (error) {
      setProblem(asProblem(error));
    }
  };

  return (
    <section aria-labelledby="rule-form-title">
      <h2 id="rule-form-title">New triage rule</h2>
      <form class="stack" onSubmit={onSubmit}>
        <RuleFields form={form} set={set} />
        <div>
          <button type="submit">Create rule</button>
        </div>
        {created && (
          <p role="status" class="notice">
            {created}
          </p>
        )}
        {problem && <ErrorPanel problem={problem} />}
      </form>
    </section>
  );
}

/** The rule's inputs; the justification and the end date only where the decision takes them. */
function RuleFields({
  form,
  set,
}: {
  form: RuleForm;
  set: (key: keyof RuleForm) => (event: Event) => void;
}) {
  const fields = triageFields(form.status);
  return (
    <>
      <label for="rule-vulnerability">
        Vulnerability (CVE, GHSA, ... or id)
        <input
          id="rule-vulnerability"
          required
          value={form.vulnerability}
          onInput={set('vulnerability')}
        />
      </label>
      <label for="rule-purl">
        Package URL
        <input
          id="rule-purl"
          placeholder="pkg:npm/left-pad"
          value={form.purl}
          onInput={set('purl')}
        />
      </label>
      <label for="rule-range">
        Version range (vers; empty: every version)
        <input
          id="rule-range"
          placeholder="vers:npm/>=1.0.0|<2.0.0"
          value={form.versionRange}
          onInput={set('versionRange')}
        />
      </label>
      <label for="rule-status">
        The rule's decision
        <select id="rule-status" value={form.status} onChange={set('status')}>
          {RULE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      {fields.justification && (
        <label for="rule-justification">
          Justification (required)
          <select
            id="rule-justification"
            value={form.justification}
            onChange={set('justification')}
          >
            <option value="">Choose one</option>
            {VEX_JUSTIFICATIONS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
      )}
      <label for="rule-reason">
        Reason{fields.reasonRequired ? ' (required)' : ''}
        <textarea id="rule-reason" rows={2} value={form.reason} onInput={set('reason')} />
      </label>
      {fields.expiry && (
        <label for="rule-expiry">
          Ends (required)
          <input
            id="rule-expiry"
            type="datetime-local"
            value={form.expiresLocal}
            onInput={set('expiresLocal')}
          />
        </label>
      )}
    </>
  );
}
