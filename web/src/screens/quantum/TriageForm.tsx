import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { MoveSelect } from '../../components/MoveSelect';
import { ErrorPanel } from '../../components/status';
import { useApp } from '../../context';
import { useAction } from '../../use-action';
import { findingLabel, type QuantumFinding } from './labels';
import { movesFrom, type TriageStatus, triageBody, VEX_JUSTIFICATIONS } from './triage';

/**
 * Triage of one finding: the statuses offered are only the moves allowed from its status; a
 * justification is asked for not_affected, a reason and an end date for accepted_risk. The
 * service checks again and answers 422 with the fields at fault, shown here.
 */
export function TriageForm({
  repositoryId,
  finding,
  onCancel,
  onSaved,
}: {
  repositoryId: string;
  finding: QuantumFinding;
  onCancel: () => void;
  onSaved: (saved: QuantumFinding) => void;
}) {
  const { api } = useApp();
  const moves = movesFrom(finding.status);
  const [status, setStatus] = useState<TriageStatus | undefined>(moves[0]);
  const [justification, setJustification] = useState('');
  const [reason, setReason] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const action = useAction();
  if (!status) return null;

  const submit = async (event: Event) => {
    event.preventDefault();
    const saved = await action.run(() =>
      ok(
        api.client.PATCH('/api/v1/repositories/{repositoryId}/quantum/findings/{findingId}', {
          params: { path: { repositoryId, findingId: finding.findingId } },
          body: triageBody({ status, justification, reason, expiresOn }),
        }),
      ),
    );
    if (saved) onSaved(saved);
  };

  return (
    <form class="panel triage" aria-labelledby="triage-title" onSubmit={submit}>
      <h3 id="triage-title">Triage {findingLabel(finding)}</h3>
      <p>
        {finding.algorithm} ({finding.classification}), now {finding.status.replace('_', ' ')}.{' '}
        {finding.recommendation}
      </p>
      {finding.snippet && (
        <p>
          <code>{finding.snippet}</code>
        </p>
      )}
      <MoveSelect
        id="triage-status"
        current={finding.status}
        moves={moves}
        value={status}
        onChange={setStatus}
        keepLabel="keep, update details"
      />
      {status === 'not_affected' && (
        <label for="triage-justification">
          Justification (VEX)
          <select
            id="triage-justification"
            required
            value={justification}
            onChange={(event) => setJustification(event.currentTarget.value)}
          >
            <option value="">Choose one</option>
            {VEX_JUSTIFICATIONS.map((value) => (
              <option key={value} value={value}>
                {value.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
      )}
      <label for="triage-reason">
        Reason{status === 'accepted_risk' ? ' (required)' : ''}
        <textarea
          id="triage-reason"
          rows={2}
          maxLength={2000}
          required={status === 'accepted_risk'}
          value={reason}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
      </label>
      {status === 'accepted_risk' && (
        <label for="triage-expires">
          Accepted until (end of day, UTC)
          <input
            id="triage-expires"
            type="date"
            required
            value={expiresOn}
            onInput={(event) => setExpiresOn(event.currentTarget.value)}
          />
        </label>
      )}
      {action.problem && <ErrorPanel problem={action.problem} />}
      <p class="actions">
        <button type="submit" disabled={action.busy}>
          Save status
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}
