import type { ReportContent } from './content';
import { productTable, reportTables } from './sections';

/**
 * The text formats of a report pack, rendered from its stored content: markdown for reading,
 * CSV (RFC 4180) for spreadsheets. The sections are the tables of sections.ts.
 */

function markdownCell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

function markdownTable(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(markdownCell).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export function renderMarkdown(content: ReportContent): string {
  const p = content.product;
  const identity = productTable(content);
  const parts = [
    `# CRA report pack: ${p.name} ${p.versionLine}`,
    `Regulation (EU) 2024/2847. Generated ${content.generatedAtUtc} by ${content.generator.name} ${content.generator.version}; pack ${content.packId}.`,
    `## ${identity.title}`,
    markdownTable(identity.headers, identity.rows),
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

/**
 * Every section as a header row (`section` and the column keys, camelCase as in the JSON) and
 * one row per item (the section's key first); rows padded to one width, as RFC 4180 asks.
 */
export function renderCsv(content: ReportContent): string {
  const lines: string[][] = [];
  for (const table of [productTable(content), ...reportTables(content)]) {
    lines.push(['section', ...table.keys]);
    for (const row of table.dataRows) lines.push([table.section, ...row]);
  }
  const width = Math.max(...lines.map((cells) => cells.length));
  return `${lines
    .map((cells) => [...cells, ...Array(width - cells.length).fill('')])
    .map((cells) => cells.map(csvField).join(','))
    .join('\r\n')}\r\n`;
}
