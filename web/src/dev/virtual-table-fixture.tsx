import { render } from 'preact';
import { type Column, VirtualTable } from '../components/VirtualTable';
import '../styles.css';

/**
 * Not part of the app: the page test/web/virtual-table.test.ts builds to scroll a VirtualTable
 * of 20,000 rows in Chromium (the dependencies screen's size).
 */
interface Row {
  id: string;
  name: string;
  version: string;
  ecosystem: string;
  direct: boolean;
}

const ROWS: Row[] = Array.from({ length: 20_000 }, (_, index) => ({
  id: `row-${index}`,
  name: `package-${index}`,
  version: `${index % 7}.${index % 13}.${index % 5}`,
  ecosystem: ['npm', 'pypi', 'maven', 'go'][index % 4] ?? 'npm',
  direct: index % 9 === 0,
}));

const COLUMNS: Column<Row>[] = [
  { header: 'Package', width: '2fr', render: (row) => row.name },
  { header: 'Version', render: (row) => row.version },
  { header: 'Ecosystem', render: (row) => row.ecosystem },
  { header: 'Direct', render: (row) => (row.direct ? 'direct' : 'transitive') },
];

const root = document.getElementById('app');
if (root) {
  render(
    <main id="main">
      <h1>Dependencies</h1>
      <VirtualTable
        label="Dependencies"
        rows={ROWS}
        columns={COLUMNS}
        rowKey={(row) => row.id}
        height={600}
      />
    </main>,
    root,
  );
}
