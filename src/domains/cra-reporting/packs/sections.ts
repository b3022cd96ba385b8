import type { AssessedItem } from '../../cra/annex-i/assessments';
import type { CraFinding } from '../../cra/findings/findings';
import { isLegacyItem, type LegacyReportItem } from './compliance';
import { componentsOf, type ReportContent } from './content';

/**
 * The sections of a report pack as tables, defined once for markdown, CSV and PDF. Every column
 * has a camelCase key (the CSV header names, as the JSON names its fields); a column with a
 * title is shown in markdown and PDF too, one without is data only the CSV carries.
 */
export interface ReportTable {
  /** The section's key: the first CSV column of each of its rows. */
  section: string;
  title: string;
  /** What the section says when it has no rows. */
  empty: string;
  keys: string[];
  /** Titles of the shown columns (markdown, PDF) and their rows. */
  headers: string[];
  rows: string[][];
  /** Every column, by `keys`, for the CSV. */
  dataRows: string[][];
}

interface Column<T> {
  key: string;
  title?: string;
  /** null or empty: `-` where shown, an empty CSV cell. */
  value: (item: T) => Cell;
}

type Cell = string | number | boolean | null | undefined;
export const text = (value: Cell) =>
  value === null || value === undefined || value === '' ? '-' : String(value);
const data = (value: Cell) => (value === null || value === undefined ? '' : String(value));

function table<T>(
  head: { section: string; title: string; empty: string },
  columns: Column<T>[],
  items: T[],
): ReportTable {
  const shown = columns.filter((column) => column.title !== undefined);
  return {
    ...head,
    keys: columns.map((column) => column.key),
    headers: shown.map((column) => column.title as string),
    rows: items.map((item) => shown.map((column) => text(column.value(item)))),
    dataRows: items.map((item) => columns.map((column) => data(column.value(item)))),
  };
}

/** Legacy items (packs generated before the sections carried data) keep their four columns. */
function itemTable<T extends object>(
  head: { section: string; title: string; empty: string },
  columns: Column<T>[],
  items: (T | LegacyReportItem)[],
): ReportTable {
  const legacy = items.filter(isLegacyItem);
  if (items.length > 0 && legacy.length === items.length) {
    return table(
      head,
      [
        { key: 'reference', title: 'Reference', value: (i) => i.ref },
        { key: 'title', title: 'Title', value: (i) => i.title },
        { key: 'state', title: 'State', value: (i) => i.state },
        { key: 'detail', title: 'Detail', value: (i) => i.detail },
      ],
      legacy,
    );
  }
  return table(
    head,
    columns,
    items.filter((item): item is T => !isLegacyItem(item)),
  );
}

const findingReference = (f: CraFinding) =>
  f.canonicalId ?? f.vulnerabilityId ?? `policy ${f.policyId ?? ''}`.trim();

function fixText(f: CraFinding): string | null {
  if (f.fixReleased === null) return null;
  return f.fixReleased ? f.fixedVersions.join(', ') : 'no fix released';
}

function findingDetail(f: CraFinding): string {
  return [
    f.activelyExploited ? 'actively exploited' : null,
    f.knownExploited ? `KEV ${f.knownExploited.cveId} added ${f.knownExploited.dateAdded}` : null,
    f.justification,
    `detected ${f.detectedAtUtc}`,
    f.remediatedAtUtc ? `remediated ${f.remediatedAtUtc}` : null,
    f.reportedAtUtc ? `reported ${f.reportedAtUtc}` : null,
  ]
    .filter(Boolean)
    .join('; ');
}

const FINDING_COLUMNS: Column<CraFinding>[] = [
  { key: 'reference', title: 'Reference', value: findingReference },
  { key: 'findingId', value: (f) => f.findingId },
  { key: 'source', value: (f) => f.source },
  { key: 'repositoryId', value: (f) => f.repositoryId },
  { key: 'ecosystem', value: (f) => f.ecosystem },
  {
    key: 'package',
    title: 'Package',
    value: (f) => `${f.packageName}${f.version ? `@${f.version}` : ''}`,
  },
  { key: 'packageName', value: (f) => f.packageName },
  { key: 'version', value: (f) => f.version },
  { key: 'severity', title: 'Severity', value: (f) => f.severity },
  { key: 'state', title: 'State', value: (f) => f.state },
  { key: 'fixedVersions', title: 'Fixed in', value: fixText },
  { key: 'activelyExploited', value: (f) => f.activelyExploited },
  { key: 'detail', title: 'Detail', value: findingDetail },
];

function evidenceOf(item: AssessedItem): string[] {
  return [
    ...item.evidence,
    item.note,
    item.evidenceUrl,
    item.assessedAtUtc ? `assessed ${item.assessedAtUtc}` : null,
  ].filter((value): value is string => Boolean(value));
}

const ASSESSED_COLUMNS: Column<AssessedItem>[] = [
  { key: 'reference', title: 'Reference', value: (i) => i.reference },
  { key: 'id', value: (i) => i.id },
  { key: 'title', title: 'Title', value: (i) => i.title },
  { key: 'status', title: 'Status', value: (i) => i.status },
  { key: 'basis', title: 'Basis', value: (i) => i.basis },
  { key: 'evidence', title: 'Evidence', value: (i) => evidenceOf(i).join('; ') },
];

const CLOCK_KIND_TITLES: Record<string, string> = {
  early_warning: 'Early warning',
  notification: 'Notification',
  final_report: 'Final report',
};

type Clock = ReportContent['clocks'][number];

const CLOCK_COLUMNS: Column<Clock>[] = [
  { key: 'kind', title: 'Stage', value: (c) => CLOCK_KIND_TITLES[c.kind] ?? c.kind },
  {
    key: 'trigger',
    title: 'Trigger',
    value: (c) =>
      c.trigger === 'vulnerability'
        ? `vulnerability ${text(c.vulnerabilityId)}`
        : `incident ${text(c.incidentId)}`,
  },
  { key: 'startedAtUtc', title: 'Started', value: (c) => c.startedAtUtc },
  { key: 'dueAtUtc', title: 'Due', value: (c) => c.dueAtUtc },
  { key: 'state', title: 'State', value: (c) => (c.overdue ? 'running (overdue)' : c.state) },
  {
    key: 'submission',
    title: 'Submission',
    value: (c) =>
      c.submission
        ? `${c.submission.reference} at ${c.submission.submittedAtUtc}${c.submission.note ? `: ${c.submission.note}` : ''}`
        : null,
  },
];

type Incident = ReportContent['incidents'][number];

const INCIDENT_COLUMNS: Column<Incident>[] = [
  { key: 'title', title: 'Incident', value: (i) => i.title },
  { key: 'awareAtUtc', title: 'Aware at', value: (i) => i.awareAtUtc },
  { key: 'severeBecause', title: 'Severe because', value: (i) => i.severeBecause.join(', ') },
  { key: 'description', title: 'Description', value: (i) => i.description },
];

/** The product's identity and conformity route, one field a row. */
export function productTable(content: ReportContent): ReportTable {
  const p = content.product;
  const route = content.conformityRoute;
  const fields: [string, string, Cell][] = [
    ['name', 'Product', p.name],
    ['versionLine', 'Version line', p.versionLine],
    ['manufacturer', 'Manufacturer', p.manufacturer],
    ['supportPeriodEnd', 'Support period ends', p.supportPeriodEnd],
    ['securityContact', 'Security contact', p.securityContact],
    ['cvdPolicyUrl', 'CVD policy', p.cvdPolicyUrl],
    ['classification', 'Classification', p.classification],
    ['category', 'Annex III/IV category', p.categoryTitle ?? p.category],
    ['conformityRoute', 'Conformity route', route.modules.join('; ')],
    ['thirdPartyRequired', 'Third party required', route.thirdPartyRequired ? 'yes' : 'no'],
    ['legalBasis', 'Legal basis', route.legalBasis],
    ['productId', 'Product id', p.productId],
  ];
  return {
    ...table(
      { section: 'product', title: 'Product identity and conformity route', empty: '' },
      [
        { key: 'field', title: 'Field', value: (f: (typeof fields)[number]) => f[1] },
        { key: 'value', title: 'Value', value: (f) => f[2] },
      ],
      fields,
    ),
    // The CSV names each field by its key, as the JSON does.
    dataRows: fields.map(([key, , value]) => [key, data(value)]),
  };
}

function sbomTables(content: ReportContent): ReportTable[] {
  const overview = table(
    {
      section: 'repositories',
      title: 'Repositories and SBOMs (CycloneDX 1.6)',
      empty: 'No repository is linked to the product.',
    },
    [
      { key: 'repositoryId', value: (r: ReportContent['repositories'][number]) => r.repositoryId },
      { key: 'name', title: 'Repository', value: (r) => r.name },
      { key: 'lastScannedAtUtc', title: 'Last scanned', value: (r) => r.lastScannedAtUtc },
      { key: 'componentCount', title: 'Components', value: (r) => r.componentCount },
    ],
    content.repositories,
  );
  const components = content.repositories.map((r) =>
    table(
      {
        section: 'sbomComponents',
        title: `SBOM components: ${r.name}`,
        empty: 'The SBOM lists no components.',
      },
      [
        { key: 'repositoryId', value: () => r.repositoryId },
        {
          key: 'name',
          title: 'Component',
          value: (c: ReturnType<typeof componentsOf>[number]) => c.name,
        },
        { key: 'version', title: 'Version', value: (c) => c.version },
        { key: 'licence', title: 'Licence', value: (c) => c.licence },
        { key: 'purl', title: 'Package URL', value: (c) => c.purl },
      ],
      componentsOf(r.sbom),
    ),
  );
  return [overview, ...components];
}

/** Every section after the product identity, as tables. */
export function reportTables(content: ReportContent): ReportTable[] {
  return [
    ...sbomTables(content),
    itemTable(
      { section: 'findings', title: 'Findings', empty: 'No findings.' },
      FINDING_COLUMNS,
      content.findings,
    ),
    itemTable(
      {
        section: 'annexI',
        title: 'Annex I essential requirements',
        empty: 'No Annex I status recorded.',
      },
      ASSESSED_COLUMNS,
      content.annexI,
    ),
    itemTable(
      { section: 'duties', title: 'Article 13 duties', empty: 'No duty status recorded.' },
      ASSESSED_COLUMNS,
      content.duties,
    ),
    table(
      {
        section: 'clocks',
        title: 'Article 14 clocks and submissions',
        empty: 'No Article 14 clock has started for this product.',
      },
      CLOCK_COLUMNS,
      content.clocks,
    ),
    table(
      {
        section: 'incidents',
        title: 'Severe incidents',
        empty: 'No severe incident is recorded for this product.',
      },
      INCIDENT_COLUMNS,
      content.incidents,
    ),
  ];
}
