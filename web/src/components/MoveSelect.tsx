/**
 * The "New status" choice of a triage form: only the moves the state machine allows from the
 * current status (api/triage.ts); staying on the current one is offered as an update.
 */
export function MoveSelect<S extends string>({
  id,
  current,
  moves,
  value,
  onChange,
  keepLabel,
}: {
  id: string;
  current: string;
  moves: readonly S[];
  value: S | '';
  onChange: (next: S) => void;
  /** How staying on the current status reads, e.g. "keep, update the reason". */
  keepLabel: string;
}) {
  return (
    <label for={id}>
      New status
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const chosen = moves.find((move) => move === event.currentTarget.value);
          if (chosen !== undefined) onChange(chosen);
        }}
      >
        {moves.map((move) => (
          <option key={move} value={move}>
            {move === current ? `${move.replace('_', ' ')} (${keepLabel})` : move.replace('_', ' ')}
          </option>
        ))}
      </select>
    </label>
  );
}
