/** The CRA values the API filters by (src/domains/cra/tables.ts, findings/findings.ts). */
export const CRA_CLASSES = [
  'default',
  'important_class_i',
  'important_class_ii',
  'critical',
] as const;

export const CRA_FINDING_STATES = [
  'open',
  'under_assessment',
  'remediated',
  'not_exploitable',
  'reported',
] as const;
