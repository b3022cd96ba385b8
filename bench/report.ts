import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = join(process.cwd(), 'docs', 'benchmarks.md');
const HEADER = `# Benchmarks

Measured on the project's 2-core machines; each benchmark compares against a baseline measured
in the same run, so the ratios matter more than the absolute numbers. Re-run with the npm
scripts named in each section; they rewrite their own section.
`;

/** Replaces (or appends) the `## title` section of docs/benchmarks.md. */
export function writeBenchmarkSection(title: string, body: string): void {
  let text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  const heading = `## ${title}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const start = text.indexOf(heading);
  if (start === -1) {
    text = `${text.trimEnd()}\n\n${section}`;
  } else {
    const next = text.indexOf('\n## ', start + heading.length);
    text = `${text.slice(0, start)}${section}${next === -1 ? '' : `\n${text.slice(next + 1)}`}`;
  }
  writeFileSync(FILE, text);
}

/** The median of some measurements (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
