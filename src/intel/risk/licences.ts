/**
 * Licences that organisations' policies commonly flag (docs/package-intelligence.md#licences):
 * network copyleft and source-available licences that restrict commercial or hosted use, and
 * packages that say they are not licensed at all. Matched on SPDX ids inside an expression
 * (`MIT OR AGPL-3.0-only` is flagged only when no unflagged alternative is offered with OR).
 */
export type LicenceFlag =
  | 'network-copyleft'
  | 'source-available'
  | 'non-commercial'
  | 'unlicensed'
  | 'strong-copyleft';

const RULES: readonly { pattern: RegExp; flag: LicenceFlag }[] = [
  { pattern: /^AGPL/i, flag: 'network-copyleft' },
  { pattern: /^SSPL/i, flag: 'source-available' },
  { pattern: /^BUSL|^BSL-1\.1$|BUSINESS SOURCE/i, flag: 'source-available' },
  { pattern: /^Elastic-2\.0$|^ELv2$/i, flag: 'source-available' },
  { pattern: /COMMONS[- ]CLAUSE/i, flag: 'source-available' },
  { pattern: /^CC-BY(-SA)?-NC/i, flag: 'non-commercial' },
  { pattern: /-NC-|-NC$/i, flag: 'non-commercial' },
  { pattern: /^UNLICENSED$|^PROPRIETARY$|^SEE LICENSE IN/i, flag: 'unlicensed' },
  { pattern: /^GPL|^LGPL-?[23]/i, flag: 'strong-copyleft' },
];

// LGPL is weak copyleft: commonly allowed; only GPL proper stays in the strong-copyleft flag.
function flagOfId(id: string): LicenceFlag | null {
  if (/^LGPL/i.test(id)) return null;
  for (const rule of RULES) if (rule.pattern.test(id)) return rule.flag;
  return null;
}

/**
 * The flag of a licence expression, or null when it is not flagged. With `OR`, the package is
 * flagged only if every alternative is; with `AND`, if any part is.
 */
export function licenceFlag(expression: string | null): LicenceFlag | null {
  if (expression === null) return null;
  const text = expression.trim().replace(/^\(+|\)+$/g, '');
  if (text === '') return null;
  if (/^SEE LICENSE IN/i.test(text)) return 'unlicensed';
  const alternatives = text.split(/\s+OR\s+/i);
  let flag: LicenceFlag | null = null;
  for (const alternative of alternatives) {
    const parts = alternative.replace(/[()]/g, ' ').split(/\s+(?:AND|WITH)\s+/i);
    let partFlag: LicenceFlag | null = null;
    for (const part of parts) {
      const id = part.trim().replace(/\+$/, '');
      const found = flagOfId(id);
      if (found) partFlag = found;
    }
    if (partFlag === null) return null;
    flag = partFlag;
  }
  return flag;
}
