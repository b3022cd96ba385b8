import type { ScanLogLine } from '../store';
import type { ScanLogLevel } from '../tables';

/**
 * A scan's log lines held in memory until they are written in one statement: at state changes
 * (in the same transaction), with each heartbeat, and whenever `FLUSH_LINES` have gathered.
 * A scan that logged one transaction per line held the database (on the embedded one, its only
 * connection) once per line; now a scan writes a handful of statements.
 */
export const FLUSH_LINES = 25;

export class ScanLogBuffer {
  private lines: ScanLogLine[] = [];

  /** Notes a line; true when enough have gathered that the owner should flush now. */
  add(level: ScanLogLevel, step: string, message: string): boolean {
    this.lines.push({ level, step, message, at: new Date() });
    return this.lines.length >= FLUSH_LINES;
  }

  get size(): number {
    return this.lines.length;
  }

  /** Takes the lines to write (the buffer is empty afterwards). */
  take(): ScanLogLine[] {
    const taken = this.lines;
    this.lines = [];
    return taken;
  }

  /** Puts back lines whose write failed, before any noted since (their order is kept). */
  restore(lines: ScanLogLine[]): void {
    this.lines = [...lines, ...this.lines];
  }
}
