import type PDFDocument from 'pdfkit';
import type { ReportContent } from './content';
import { productTable, type ReportTable, reportTables } from './sections';

/**
 * The PDF of a report pack (pdfkit, A4): a title page with the product's identity and the
 * contents, then one section per table with repeated header rows across page breaks, and a
 * footer on every page with the product, the generation time and "Page n of N".
 */
const MARGIN = 50;
const FOOTER_SPACE = 30;
const CELL_PADDING = 4;
const MAX_CELL_CHARS = 600;

type Doc = InstanceType<typeof PDFDocument>;

function pageBottom(doc: Doc): number {
  return doc.page.height - MARGIN - FOOTER_SPACE;
}

function cellText(value: string): string {
  return value.length > MAX_CELL_CHARS ? `${value.slice(0, MAX_CELL_CHARS - 1)}…` : value;
}

/** Column widths: share the page width by each column's longest text, within bounds. */
function columnWidths(doc: Doc, table: { headers: string[]; rows: string[][] }): number[] {
  const total = doc.page.width - 2 * MARGIN;
  const weights = table.headers.map((header, i) => {
    const longest = Math.max(header.length, ...table.rows.map((row) => (row[i] ?? '').length));
    return Math.min(Math.max(longest, 8), 60);
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (w / sum) * total);
}

function drawRow(
  doc: Doc,
  cells: string[],
  widths: number[],
  header: boolean,
  repeatHeader?: () => void,
): void {
  doc.font(header ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
  const heights = cells.map(
    (cell, i) =>
      doc.heightOfString(cellText(cell), { width: (widths[i] ?? 0) - 2 * CELL_PADDING }) +
      2 * CELL_PADDING,
  );
  const height = Math.max(...heights, 14);
  if (doc.y + height > pageBottom(doc)) {
    doc.addPage();
    repeatHeader?.();
    doc.font(header ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
  }
  const top = doc.y;
  let x = MARGIN;
  const width = widths.reduce((a, b) => a + b, 0);
  if (header) doc.rect(MARGIN, top, width, height).fill('#dde3ea');
  doc.fillColor('#000000');
  cells.forEach((cell, i) => {
    const w = widths[i] ?? 0;
    doc.text(cellText(cell), x + CELL_PADDING, top + CELL_PADDING, { width: w - 2 * CELL_PADDING });
    x += w;
  });
  doc.lineWidth(0.5).strokeColor('#9aa5b1').rect(MARGIN, top, width, height).stroke();
  let line = MARGIN;
  for (const w of widths.slice(0, -1)) {
    line += w;
    doc
      .moveTo(line, top)
      .lineTo(line, top + height)
      .stroke();
  }
  doc.x = MARGIN;
  doc.y = top + height;
}

function drawTable(doc: Doc, table: ReportTable, number: number): void {
  if (doc.y + 80 > pageBottom(doc)) doc.addPage();
  doc.moveDown(0.8);
  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .fillColor('#1f2d3d')
    .text(`${number}. ${table.title}`, MARGIN);
  doc.moveDown(0.4);
  if (table.rows.length === 0) {
    doc.font('Helvetica-Oblique').fontSize(9).fillColor('#000000').text(table.empty, MARGIN);
    return;
  }
  const widths = columnWidths(doc, table);
  drawRow(doc, table.headers, widths, true);
  // A row that moves to a new page gets the header row above it there.
  const header = () => drawRow(doc, table.headers, widths, true);
  for (const row of table.rows) drawRow(doc, row, widths, false, header);
}

function titlePage(doc: Doc, content: ReportContent, tables: ReportTable[]): void {
  const p = content.product;
  doc
    .font('Helvetica')
    .fontSize(11)
    .fillColor('#5a6b7b')
    .text('Regulation (EU) 2024/2847 (Cyber Resilience Act)', MARGIN, 120);
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').fontSize(26).fillColor('#1f2d3d').text('CRA report pack');
  doc.moveDown(0.3);
  doc.font('Helvetica-Bold').fontSize(18).text(`${p.name} ${p.versionLine}`);
  doc.moveDown(1.5);
  const identity: [string, string][] = [
    ['Manufacturer', p.manufacturer],
    [
      'Classification',
      p.categoryTitle ? `${p.classification} (${p.categoryTitle})` : p.classification,
    ],
    ['Conformity route', content.conformityRoute.modules.join('; ')],
    ['Support period ends', p.supportPeriodEnd ?? 'not set'],
    ['Generated', content.generatedAtUtc],
    ['Pack id', content.packId],
  ];
  for (const [label, value] of identity) {
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor('#000000')
      .text(`${label}: `, MARGIN, doc.y, { continued: true });
    doc.font('Helvetica').text(value);
    doc.moveDown(0.2);
  }
  doc.moveDown(1.5);
  doc.font('Helvetica-Bold').fontSize(12).text('Contents');
  doc.moveDown(0.3);
  doc.font('Helvetica').fontSize(10);
  ['Product identity and conformity route', ...tables.map((t) => t.title)].forEach((title, i) => {
    doc.text(`${i + 1}. ${title}`);
  });
}

function footers(doc: Doc, content: ReportContent): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN - 10;
    const width = doc.page.width - 2 * MARGIN;
    doc.font('Helvetica').fontSize(8).fillColor('#5a6b7b');
    doc.text(
      `CRA report pack: ${content.product.name} ${content.product.versionLine}. Generated ${content.generatedAtUtc}`,
      MARGIN,
      y,
      { width, align: 'left', lineBreak: false },
    );
    doc.text(`Page ${i + 1} of ${range.count}`, MARGIN, y, {
      width,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/**
 * pdfkit (its fonts and their decoders, about 5 MB of heap) is loaded on the first PDF, not at
 * start: most processes never render one (docs/operations.md#memory).
 */
export async function renderPdf(content: ReportContent): Promise<Buffer> {
  const { default: PDFKit } = await import('pdfkit');
  const doc = new PDFKit({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `CRA report pack: ${content.product.name} ${content.product.versionLine}`,
      Author: content.product.manufacturer,
      Creator: `${content.generator.name} ${content.generator.version}`,
      CreationDate: new Date(content.generatedAtUtc),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const tables = reportTables(content);
  titlePage(doc, content, tables);
  doc.addPage();
  drawTable(doc, productTable(content), 1);
  doc.moveDown(0.5);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#000000')
    .text(content.conformityRoute.description, MARGIN);
  tables.forEach((table, i) => {
    drawTable(doc, table, i + 2);
  });
  footers(doc, content);
  doc.end();
  return done;
}
