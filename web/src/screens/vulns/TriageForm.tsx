import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import {
  exposureMoves,
  type TriageStatus,
  triageBody,
  triageFields,
  VEX_JUSTIFICATIONS,
} from '../../api/triage';
import type { Ok } from '../../api/types';
import { MoveSelect } from '../../components/MoveSelect';
import { ErrorPanel } from '../../components/status';
import { useApp } from '../../context';
import { useAction } from '../../use-action';

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
  const [status, setStatus] = useState<TriageStatus | ''>(
    moves.find((m) => m !== exposure.status) ?? '',
  );
  const [justification, setJustification] = useState('');
  const [reason, setReason] = useState('');
  const [expiresLocal, setExpiresLocal] = useState('');
  const action = useAction();
  if (moves.length === 0) {
    return <p>A {exposure.status} exposure cannot be triaged by hand.</p>;
  }
  const fields = triageFields(status);

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const next = await action.run(() =>
      ok(
        api.client.PATCH('/api/v1/vulnerability-exposures/{exposureId}', {
          params: { path: { exposureId: exposure.exposureId } },
          body: triageBody({ status, justification, reason, expiresLocal }),
        }),
      ),
    );
    if (!next) return;
    setReason('');
    onDone(next);
  };

  return (
    <form class="stack" aria-label="Triage" onSubmit={onSubmit}>
      <MoveSelect
        id="triage-status"
        current={exposure.status}
        moves={moves}
        value={status}
        onChange={setStatus}
        keepLabel="keep, update details"
      />
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
        <button type="submit" disabled={action.busy || status === ''}>
          Save triage
        </button>
      </div>
      {action.problem && <ErrorPanel problem={action.problem} />}
    </form>
  );
}
