import type { Citation } from './intent';

/** The API path of each kind of record an answer cites (the contract's read endpoints). */
export const cite = {
  repository: (id: string): Citation => ({
    type: 'repository',
    id,
    path: `/api/v1/repositories/${id}`,
  }),
  vulnerability: (id: string): Citation => ({
    type: 'vulnerability',
    id,
    path: `/api/v1/vulnerabilities/${id}`,
  }),
  exposure: (id: string): Citation => ({
    type: 'exposure',
    id,
    path: `/api/v1/vulnerability-exposures/${id}`,
  }),
  package: (id: string): Citation => ({ type: 'package', id, path: `/api/v1/packages/${id}` }),
  policy: (id: string): Citation => ({ type: 'policy', id, path: `/api/v1/policies/${id}` }),
  violation: (id: string): Citation => ({
    type: 'policy_violation',
    id,
    path: `/api/v1/policy-violations/${id}`,
  }),
  // Exceptions have no single read; the list filtered to the package finds it.
  exception: (id: string, packageId: string): Citation => ({
    type: 'policy_exception',
    id,
    path: `/api/v1/policy-exceptions?packageId=${packageId}`,
  }),
  scan: (id: string): Citation => ({ type: 'scan', id, path: `/api/v1/scans/${id}` }),
  alert: (id: string): Citation => ({ type: 'alert', id, path: `/api/v1/alerts/${id}` }),
  craProduct: (id: string): Citation => ({
    type: 'cra_product',
    id,
    path: `/api/v1/cra/products/${id}`,
  }),
  alertRule: (id: string): Citation => ({
    type: 'alert_rule',
    id,
    path: `/api/v1/alert-rules/${id}`,
  }),
  tlsEndpoint: (id: string): Citation => ({
    type: 'tls_endpoint',
    id,
    path: `/api/v1/quantum/tls-endpoints/${id}`,
  }),
  sbomExport: (id: string): Citation => ({
    type: 'sbom_export',
    id,
    path: `/api/v1/sbom-exports/${id}`,
  }),
  clock: (id: string): Citation => ({ type: 'cra_clock', id, path: `/api/v1/cra/clocks/${id}` }),
  quantumFinding: (id: string, repositoryId: string): Citation => ({
    type: 'quantum_finding',
    id,
    path: `/api/v1/repositories/${repositoryId}/quantum/findings/${id}`,
  }),
};

/** Citations without repeats, in first-seen order. */
export function uniqueCitations(citations: readonly Citation[]): Citation[] {
  const seen = new Set<string>();
  return citations.filter((c) => {
    const key = `${c.type} ${c.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
