import { componentsOf, type ReportContent } from './report-content';

/**
 * The text formats of a report pack, rendered from its stored content: markdown for reading,
 * CSV (RFC 4180, one row per item with its section) for spreadsheets. The table layout of every
 * section is defined once here and used by the PDF too.
 */
export interface ReportTable {
  title: string;
  /** What the section says when it has no rows. */
  empty: string;
  headers: string[];
  rows: string[][];
}

const CLOCK_KIND_TITLES: Record<string, string> = {
  early_warning: 'Early warning',
  notification: 'Notification',
  final_report: 'Final report',
};

const text = (value: string | number | boolean | null | undefined) =>
  value === null || value === undefined || value === '' ? '-' : String(value);

export function productRows(content: ReportContent): string[][] {
  const p = content.product;
  return [
    ['Product', p.name],
    ['Version line', p.versionLine],
    ['Manufacturer', p.manufacturer],
    ['Support period ends', text(p.supportPeriodEnd)],
    ['Security contact', text(p.securityContact)],
    ['CVD policy', text(p.cvdPolicyUrl)],
    ['Classification', p.classification],
    ['Annex III/IV category', text(p.categoryTitle ?? p.category)],
    ['Conformity route', content.conformityRoute.modules.join('; ')],
    ['Third party required', content.conformityRoute.thirdPartyRequired ? 'yes' : 'no'],
    ['Legal basis', content.conformityRoute.legalBasis],
    ['Product id', p.productId],
  ];
}

function clockTrigger(clock: ReportContent['clocks'][number]): string {
  return clock.trigger === 'vulnerability'
    ? `vulnerability ${text(clock.vulnerabilityId)}`
    : `incident ${text(clock.incidentId)}`;
}

/** Every section after the product identity, as tables. */
export function reportTables(content: ReportContent): ReportTable[] {
  const items = (title: string, empty: string, list: ReportContent['findings']) => ({
    title,
    empty,
    headers: ['Reference', 'Title', 'State', 'Detail'],
    rows: list.map((item) => [item.ref, item.title, item.state, item.detail]),
  });
  return [
    {
      title: 'Repositories and SBOMs (CycloneDX 1.6)',
      empty: 'No repository is linked to the product.',
      headers: ['Repository', 'Last scanned', 'Components'],
      rows: content.repositories.map((r) => [
        r.name,
        text(r.lastScannedAtUtc),
        String(r.componentCount),
      ]),
    },
    ...content.repositories.map((r) => ({
      title: `SBOM components: ${r.name}`,
      empty: 'The SBOM lists no components.',
      headers: ['Component', 'Version', 'Licence', 'Package URL'],
      rows: componentsOf(r.sbom).map((c) => [
        c.name,
        text(c.version),
        text(c.licence),
        text(c.purl),
      ]),
    })),
    items('Findings', 'No findings.', content.findings),
    items('Annex I essential requirements', 'No Annex I status recorded.', content.annexI),
    items('Article 13 duties', 'No duty status recorded.', content.duties),
    {
      title: 'Article 14 clocks and submissions',
      empty: 'No Article 14 clock has started for this product.',
      headers: ['Stage', 'Trigger', 'Started', 'Due', 'State', 'Submission'],
      rows: content.clocks.map((c) => [
        CLOCK_KIND_TITLES[c.kind] ?? c.kind,
        clockTrigger(c),
        c.startedAtUtc,
        c.dueAtUtc,
        c.overdue ? 'running (overdue)' : c.state,
        c.submission
          ? `${c.submission.reference} at ${c.submission.submittedAtUtc}${c.submission.note ? `: ${c.submission.note}` : ''}`
          : '-',
      ]),
    },
    {
      title: 'Severe incidents',
      empty: 'No severe incident is recorded for this product.',
      headers: ['Incident', 'Aware at', 'Severe because', 'Description'],
      rows: content.incidents.map((i) => [
        i.title,
        i.awareAtUtc,
        i.severeBecause.join(', '),
        text(i.description),
      ]),
    },
  ];
}

function markdownCell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

function markdownTable(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(markdownCell).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export function renderMarkdown(content: ReportContent): string {
  const p = content.product;
  const parts = [
    `# CRA report pack: ${p.name} ${p.versionLine}`,
    `Regulation (EU) 2024/2847. Generated ${content.generatedAtUtc} by ${content.generator.name} ${content.generator.version}; pack ${content.packId}.`,
    '## Product identity and conformity route',
    markdownTable(['Field', 'Value'], productRows(content)),
    content.conformityRoute.description,
  ];
  for (const table of reportTables(content)) {
    parts.push(`## ${table.title}`);
    parts.push(table.rows.length === 0 ? table.empty : markdownTable(table.headers, table.rows));
  }
  return `${parts.join('\n\n')}\n`;
}

/** A CSV field: quoted when needed; a leading formula character is neutralised with `'`. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One row per item: section, then the section's own columns (numbered), as in markdown. */
export function renderCsv(content: ReportContent): string {
  const lines: string[][] = [
    ['section', 'column_1', 'column_2', 'column_3', 'column_4', 'column_5', 'column_6'],
  ];
  for (const row of productRows(content)) lines.push(['product', ...row]);
  for (const table of reportTables(content)) {
    lines.push([`${table.title} (header)`, ...table.headers]);
    for (const row of table.rows) lines.push([table.title, ...row]);
  }
  const width = lines[0]?.length ?? 0;
  return `${lines
    .map((cells) => [...cells, ...Array(Math.max(0, width - cells.length)).fill('')])
    .map((cells) => cells.map(csvField).join(','))
    .join('\r\n')}\r\n`;
}
