import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { type ApiProblem, asProblem } from '../../api/problem';
import { exposureMoves, triageBody, triageFields, VEX_JUSTIFICATIONS } from '../../api/triage';
import type { Ok } from '../../api/types';
import { ErrorPanel } from '../../components/status';
import { useApp } from '../../context';

type Exposure = Ok<'/api/v1/vulnerability-exposures/{exposureId}'>;

/**
 * Triage of one exposure: the statuses offered are the state machine's moves from the current
 * one; the justification and expiry fields appear only for the statuses that take them. A
 * refusal (422) is shown as the API's problem.
 */
export function TriageForm({
  exposure,
  onDone,
}: {
  exposure: Exposure;
  onDone: (next: Exposure) => void;
}) {
  const { api } = useApp();
  const moves = exposureMoves(exposure.status);
  const [status, setStatus] = useState<string>(moves.find((m) => m !== exposure.status) ?? '');
  const [justification, setJustification] = useState('');
  const [reason, setReason] = useState('');
  const [expiresLocal, setExpiresLocal] = useState('');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);
  if (moves.length === 0) {
    return <p>A {exposure.status} exposure cannot be triaged by hand.</p>;
  }
  const fields = triageFields(status);

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const next = await ok(
        api.client.PATCH('/api/v1/vulnerability-exposures/{exposureId}', {
          params: { path: { exposureId: exposure.exposureId } },
          body: triageBody({ status, justification, reason, expiresLocal }),
        }),
      );
      setReason('');
      onDone(next);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="stack" aria-label="Triage" onSubmit={onSubmit}>
      <label for="triage-status">
        New status
        <select
          id="triage-status"
          value={status}
          onChange={(event) => setStatus(event.currentTarget.value)}
        >
          {moves.map((move) => (
            <option key={move} value={move}>
              {move === exposure.status ? `${move} (keep, update details)` : move}
            </option>
          ))}
        </select>
      </label>
      {fields.justification && (
        <label for="triage-justification">
          Justification (required)
          <select
            id="triage-justification"
            value={justification}
            onChange={(event) => setJustification(event.currentTarget.value)}
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
      <label for="triage-reason">
        Reason{fields.reasonRequired ? ' (required)' : ' (recorded in the audit log)'}
        <textarea
          id="triage-reason"
          rows={3}
          value={reason}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
      </label>
      {fields.expiry && (
        <label for="triage-expiry">
          Acceptance ends (required)
          <input
            id="triage-expiry"
            type="datetime-local"
            value={expiresLocal}
            onInput={(event) => setExpiresLocal(event.currentTarget.value)}
          />
        </label>
      )}
      <div>
        <button type="submit" disabled={busy || status === ''}>
          Save triage
        </button>
      </div>
      {problem && <ErrorPanel problem={problem} />}
    </form>
  );
}
