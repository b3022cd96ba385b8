import { once } from 'node:events';
import { writeSync } from 'node:fs';

/**
 * Writes bytes straight to file descriptor 1; returns how many were written before the
 * descriptor refused a synchronous write (EAGAIN on a non-blocking pipe).
 */
function writeToStdoutFd(bytes: Buffer): number {
  let offset = 0;
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
  }
  return offset;
}

/**
 * Writes a command's report to standard output. Straight to file descriptor 1 when it is
 * blocking (the usual terminal, file or pipe): setting up `process.stdout` costs a short offline
 * run about 3 ms. Where the descriptor refuses a synchronous write (EAGAIN on a non-blocking
 * pipe), the rest goes through `process.stdout`.
 */
export function writeReport(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  const written = writeToStdoutFd(bytes);
  if (written < bytes.length) process.stdout.write(bytes.subarray(written));
}

/** Text gathered before a write to standard output. */
const FLUSH_BYTES = 64 * 1024;

/**
 * A report written to standard output piece by piece as it is produced (`driftwatch audit` on a
 * large tree), in chunks of about 64 KiB, the way `writeReport` writes: to descriptor 1 while it
 * takes synchronous writes, else through `process.stdout`, waiting for it to drain so that a slow
 * reader holds back the producer instead of the text piling up in memory.
 */
export class ReportStream {
  private pending: string[] = [];
  private pendingLength = 0;
  private viaProcessStdout = false;

  /** Adds text; resolves at once unless a chunk had to wait for a slow reader. */
  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= FLUSH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pendingLength === 0) return;
    const bytes = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingLength = 0;
    const written = this.viaProcessStdout ? 0 : writeToStdoutFd(bytes);
    if (written === bytes.length) return;
    // Once process.stdout owns the descriptor (non-blocking), every later chunk goes through it.
    this.viaProcessStdout = true;
    if (!process.stdout.write(bytes.subarray(written))) await once(process.stdout, 'drain');
  }
}

/** Text table rows: columns padded to the widest cell, two spaces apart; the last not padded. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
