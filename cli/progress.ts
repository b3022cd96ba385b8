/**
 * One line of progress on a terminal for long CLI work (an OSV import, a big audit): redrawn in
 * place a few times a second with the time spent, cleared when the work ends. Only when the
 * stream is a terminal: a pipe or a CI log gets nothing, so output stays what scripts read.
 */
export interface Progress {
  /** What is being done now (drawn at the next tick). */
  show(text: string): void;
  /** Clears the line; the next `show` draws again. */
  stop(): void;
}

export const NO_PROGRESS: Progress = { show() {}, stop() {} };

type Terminal = { isTTY?: boolean; write(text: string): unknown };

/** Erases the current terminal line and returns to its start. */
const CLEAR_LINE = '\r\u001b[2K';

export function terminalProgress(
  stream: Terminal = process.stderr,
  intervalMs = 250,
  now: () => number = Date.now,
): Progress {
  if (!stream.isTTY) return NO_PROGRESS;
  const started = now();
  let text = '';
  let drawn = false;
  let timer: NodeJS.Timeout | null = null;
  const draw = () => {
    if (!text) return;
    stream.write(`${CLEAR_LINE}${text} (${Math.floor((now() - started) / 1000)} s)`);
    drawn = true;
  };
  return {
    show(next) {
      text = next;
      // The first draw waits a tick: work that ends at once shows nothing.
      if (!timer) {
        timer = setInterval(draw, intervalMs);
        timer.unref();
      }
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      text = '';
      if (drawn) stream.write(CLEAR_LINE);
      drawn = false;
    },
  };
}
