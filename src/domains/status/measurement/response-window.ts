/**
 * The API's own answers over the last few minutes, counted in one-second buckets: the API
 * component's measurement (docs/status.md#components). In memory, per process.
 */
export interface ResponseWindow {
  record: (statusCode: number, at: number) => void;
  read: (now: number) => { total: number; serverErrors: number };
}

export function createResponseWindow(windowMs = 5 * 60_000): ResponseWindow {
  const seconds = Math.ceil(windowMs / 1000);
  const totals = new Array<number>(seconds).fill(0);
  const errors = new Array<number>(seconds).fill(0);
  const stamps = new Array<number>(seconds).fill(-1);
  const slot = (second: number) => {
    const index = second % seconds;
    if (stamps[index] !== second) {
      stamps[index] = second;
      totals[index] = 0;
      errors[index] = 0;
    }
    return index;
  };
  return {
    record: (statusCode, at) => {
      const index = slot(Math.floor(at / 1000));
      totals[index] = (totals[index] ?? 0) + 1;
      if (statusCode >= 500) errors[index] = (errors[index] ?? 0) + 1;
    },
    read: (now) => {
      const current = Math.floor(now / 1000);
      let total = 0;
      let serverErrors = 0;
      for (let index = 0; index < seconds; index++) {
        const stamp = stamps[index] ?? -1;
        if (stamp < 0 || current - stamp >= seconds || stamp > current) continue;
        total += totals[index] ?? 0;
        serverErrors += errors[index] ?? 0;
      }
      return { total, serverErrors };
    },
  };
}
