/**
 * The scoring weights form's live sum. Inputs are the text of each field; a blank field counts
 * as 0 (the API weighs a signal left out as 0); anything that is not a finite number makes the
 * sum unknown (null) and is named. The sum is rounded to 6 decimal places so that 33.3 + 33.3 +
 * 33.4 reads 100, as the person typed it; the API decides whether it is acceptable.
 */
export interface WeightsSum {
  values: Record<string, number>;
  sum: number | null;
  invalid: string[];
}

export function weightsSum(texts: Readonly<Record<string, string>>): WeightsSum {
  const values: Record<string, number> = {};
  const invalid: string[] = [];
  let sum = 0;
  for (const [key, text] of Object.entries(texts)) {
    const trimmed = text.trim();
    const value = trimmed === '' ? 0 : Number(trimmed);
    if (!Number.isFinite(value)) {
      invalid.push(key);
      continue;
    }
    values[key] = value;
    sum += value;
  }
  return { values, sum: invalid.length > 0 ? null : Math.round(sum * 1e6) / 1e6, invalid };
}
