import type { Ok } from '../../api/types';

/** The quantum values the API filters by (src/domains/quantum/tables.ts, schemas.ts). */
export const CLASSIFICATIONS = [
  'weak',
  'deprecated-2030',
  'disallowed-2035',
  'hybrid',
  'quantum-safe',
] as const;

export const SEVERITIES = ['high', 'medium', 'low', 'info'] as const;

export type QuantumFinding =
  Ok<'/api/v1/repositories/{repositoryId}/quantum/findings'>['items'][number];

/** Where a finding is: file and line, else the library's purl, else the algorithm. */
export const findingLabel = (row: QuantumFinding) =>
  row.file ? `${row.file}${row.line ? `:${row.line}` : ''}` : (row.purl ?? row.algorithm);
