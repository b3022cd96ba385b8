/** Affected ranges as the API gives them: one row per range, its events in order. */
export interface RangeEntry {
  label: string;
  ranges: readonly {
    type: string;
    repo: string | null;
    events: readonly { kind: string; version: string }[];
  }[];
  versions: readonly string[];
}

export function AffectedRanges({ entries, caption }: { entries: RangeEntry[]; caption: string }) {
  if (entries.length === 0) return <p class="empty">No affected ranges recorded.</p>;
  return (
    <div class="table-scroll">
      <table class="plain">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Advisory / package</th>
            <th scope="col">Range type</th>
            <th scope="col">Events</th>
            <th scope="col">Enumerated versions</th>
          </tr>
        </thead>
        <tbody>
          {entries.flatMap((entry, index) =>
            (entry.ranges.length === 0 ? [null] : entry.ranges).map((range, n) => (
              <tr key={`${index}-${n}`}>
                <td>{entry.label}</td>
                <td>{range ? range.type : 'versions only'}</td>
                <td>
                  {range
                    ? range.events.map((event) => `${event.kind} ${event.version}`).join(', ')
                    : ''}
                </td>
                <td>
                  {n === 0 && entry.versions.length > 0
                    ? `${entry.versions.slice(0, 12).join(', ')}${entry.versions.length > 12 ? ` (+${entry.versions.length - 12})` : ''}`
                    : ''}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Fixed versions, or the sentence saying there is none. */
export function FixedVersions({ versions }: { versions: readonly string[] }) {
  return versions.length === 0 ? (
    <p>No fixed version published.</p>
  ) : (
    <ul class="inline-list">
      {versions.map((version) => (
        <li key={version}>
          <code>{version}</code>
        </li>
      ))}
    </ul>
  );
}
