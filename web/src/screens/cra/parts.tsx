import type { ComponentChildren } from 'preact';
import type { Ok } from '../../api/types';
import { type Column, VirtualTable } from '../../components/VirtualTable';
import { dateTime } from '../../format';
import { Link } from '../../router';

/** Pieces the CRA screens share: a small real table, the clocks table. */

export interface SimpleColumn<T> {
  header: string;
  render: (row: T) => ComponentChildren;
}

/**
 * A short list as a real <table> (long texts wrap), scrolling sideways inside on a phone; the
 * scroll area is a focusable region so the keyboard can scroll it too.
 */
export function SimpleTable<T>({
  label,
  rows,
  columns,
  rowKey,
}: {
  label: string;
  rows: readonly T[];
  columns: readonly SimpleColumn<T>[];
  rowKey: (row: T) => string;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll area must take focus to scroll
    <section class="table-scroll" aria-label={`${label} (scrolls)`} tabIndex={0}>
      <table class="data" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header}>{column.render(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export type CraClock = Ok<'/api/v1/cra/clocks/due'>['items'][number];

const clockColumns = (productName?: (productId: string) => string): Column<CraClock>[] => [
  { header: 'Clock', render: (row) => row.kind.replace('_', ' ') },
  ...(productName
    ? [
        {
          header: 'Product',
          render: (row: CraClock) => (
            <Link href={`/cra/products/${encodeURIComponent(row.productId)}`}>
              {productName(row.productId)}
            </Link>
          ),
        },
      ]
    : []),
  { header: 'Trigger', render: (row) => row.trigger },
  { header: 'Due', width: '1.4fr', render: (row) => dateTime(row.dueAtUtc) },
  {
    header: 'State',
    render: (row) => (row.overdue ? <strong class="warn">{row.state}, overdue</strong> : row.state),
  },
  {
    header: 'Submission',
    width: '1.4fr',
    render: (row) => row.submission?.reference ?? 'none yet',
  },
];

/** Clocks in the order the API gives them (the due list: overdue first, then soonest due). */
export function ClockTable({
  label,
  clocks,
  productName,
}: {
  label: string;
  clocks: readonly CraClock[];
  /** Names the product column's links; no column without it. */
  productName?: (productId: string) => string;
}) {
  return (
    <VirtualTable
      label={label}
      rows={clocks}
      columns={clockColumns(productName)}
      rowKey={(row) => row.clockId}
      height={Math.min(480, 36 * clocks.length + 4)}
    />
  );
}
