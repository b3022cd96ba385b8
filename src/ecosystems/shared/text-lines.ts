/**
 * Character offsets to 1-based line numbers, for parsers that report offsets (or nothing) and
 * extractors that find their own key positions. Shared by every format in this folder.
 */

/** Offsets of line starts, for turning a character offset into a 1-based line. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let i = text.indexOf('\n');
  while (i !== -1) {
    starts.push(i + 1);
    i = text.indexOf('\n', i + 1);
  }
  return starts;
}

export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Line numbers for offsets visited in increasing order: counts newlines only between the previous
 * offset and the next, so a whole file costs one pass.
 */
export function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  let line = 1;
  return (offset) => {
    if (offset < at) {
      at = 0;
      line = 1;
    }
    let nl = text.indexOf('\n', at);
    while (nl !== -1 && nl < offset) {
      line++;
      nl = text.indexOf('\n', nl + 1);
    }
    at = offset;
    return line;
  };
}
