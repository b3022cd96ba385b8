import { ok } from '../../api/client';
import { oneOfParam, textParam } from '../../api/query-state';
import { ECOSYSTEMS, SEVERITIES } from '../../api/triage';
import type { Ok } from '../../api/types';
import { PagedList } from '../../components/PagedList';
import type { Column } from '../../components/VirtualTable';
import { dateTime } from '../../format';
import { Link, useLocation } from '../../router';

/** The vulnerability catalogue: search by identifier, alias, summary or package name. */
type Vulnerability = Ok<'/api/v1/vulnerabilities'>['items'][number];

const WITHDRAWN = ['true'] as const;

const COLUMNS: readonly Column<Vulnerability>[] = [
  {
    header: 'Identifier',
    width: '1.3fr',
    render: (row) => (
      <Link href={`/vulnerabilities/${encodeURIComponent(row.vulnerabilityId)}`}>
        {row.canonicalId}
      </Link>
    ),
  },
  { header: 'Aliases', width: '1.4fr', render: (row) => row.aliases.join(', ') },
  { header: 'Severity', width: '0.8fr', render: (row) => row.severity ?? 'unrated' },
  { header: 'Summary', width: '2.4fr', render: (row) => row.summary ?? '' },
  { header: 'Published', width: '1.2fr', render: (row) => dateTime(row.publishedUtc) },
];

export default function Vulnerabilities() {
  return (
    <PagedList<Vulnerability>
      title="Vulnerabilities"
      intro={<OpenById />}
      filters={[
        { kind: 'search', key: 'search', label: 'Identifier, alias or text' },
        { kind: 'select', key: 'severity', label: 'Severity', options: SEVERITIES },
        { kind: 'select', key: 'ecosystem', label: 'Ecosystem', options: ECOSYSTEMS },
        { kind: 'select', key: 'includeWithdrawn', label: 'Withdrawn too', options: WITHDRAWN },
      ]}
      load={(api, { search, take, skip }) =>
        ok(
          api.client.GET('/api/v1/vulnerabilities', {
            params: {
              query: {
                take,
                skip,
                search: textParam(search, 'search') ?? undefined,
                severity: oneOfParam(search, 'severity', SEVERITIES) ?? undefined,
                ecosystem: oneOfParam(search, 'ecosystem', ECOSYSTEMS) ?? undefined,
                includeWithdrawn:
                  oneOfParam(search, 'includeWithdrawn', WITHDRAWN) === null ? undefined : true,
              },
            },
          }),
        )
      }
      columns={COLUMNS}
      rowKey={(row) => row.vulnerabilityId}
      empty="No vulnerabilities match."
    />
  );
}

/** A searched identifier can also be opened directly: the detail route takes any alias. */
function OpenById() {
  const text = textParam(useLocation().search, 'search')?.trim() ?? null;
  if (text === null) return null;
  return (
    <p>
      <Link href={`/vulnerabilities/${encodeURIComponent(text)}`}>Open {text} by identifier</Link>
    </p>
  );
}
