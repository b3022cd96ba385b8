import type { CorpusEntry } from './questions-corpus-entry';

/**
 * The corpus's operational half (docs/questions.md#proof): alerts, exceptions, SBOM exports, TLS
 * endpoints and their verdicts, CRA products and findings, certificates, licences, deprecated
 * packages, majors behind, stale scans, against the rows of questions-operations.ts.
 */
const R = 'refused';
const C = 'clarification';

export const OPERATIONS_CORPUS: readonly CorpusEntry[] = [
  // Operations: alerts, active exceptions, SBOM exports, TLS endpoints.
  { question: 'Which alerts are open?', expect: 'alerts.open', rows: 2 },
  {
    question: 'Show unacknowledged alerts',
    expect: 'alerts.open',
    rows: 1,
    first: { severity: 'critical' },
  },
  { question: 'Are any alerts firing?', expect: 'alerts.open', rows: 1 },
  { question: 'Which alerts have been acknowledged?', expect: 'alerts.open', rows: 1 },
  { question: 'Which policy exceptions are active?', expect: 'policies.exceptions', rows: 1 },
  { question: 'List the waivers we granted', expect: 'policies.exceptions', rows: 1 },
  { question: 'What exceptions do we have?', expect: 'policies.exceptions', rows: 1 },
  { question: 'Which SBOM exports have we made?', expect: 'sbom.exports', rows: 2 },
  { question: 'List our SBOMs', expect: 'sbom.exports', rows: 2 },
  {
    question: 'Show the CycloneDX exports',
    expect: 'sbom.exports',
    rows: 1,
    first: { repository: 'acme/web' },
  },
  { question: 'Which TLS endpoints do we watch?', expect: 'quantum.tls_endpoints', rows: 4 },
  {
    question: 'List our monitored TLS hosts',
    expect: 'quantum.tls_endpoints',
    rows: 4,
    first: { host: 'api.acme.test' },
  },
  { question: 'Which SSL endpoints are monitored?', expect: 'quantum.tls_endpoints', rows: 4 },
  { question: 'Which CRA products do we have?', expect: 'cra.products', rows: 2 },
  { question: 'List our products under the Cyber Resilience Act', expect: 'cra.products', rows: 2 },
  {
    question: 'What products have we declared?',
    expect: 'cra.products',
    rows: 2,
    first: { name: 'Billing portal' },
  },
  {
    question: 'Which certificates expire in the next 30 days?',
    expect: 'quantum.certificates',
    rows: 2,
  },
  { question: 'Show expiring certificates', expect: 'quantum.certificates', rows: 2 },
  {
    question: 'Are any certs running out within 7 days?',
    expect: 'quantum.certificates',
    rows: 1,
    first: { subject: 'CN=old.api.acme.test' },
  },
  {
    question: 'Which licences do we use?',
    expect: 'counts.licences',
    rows: 1,
    first: { licence: 'unknown', dependencies: 11 },
  },
  { question: 'Give me a licence breakdown', expect: 'counts.licences', rows: 1 },
  { question: 'How many dependencies per license?', expect: 'counts.licences', rows: 1 },
  // CRA findings by product and state (Gateway: web and api; Billing portal: billing).
  { question: 'Which CRA findings are open?', expect: 'cra.findings', rows: 6 },
  { question: 'Open CRA findings of product Gateway', expect: 'cra.findings', rows: 6 },
  { question: 'How many CRA findings were remediated?', expect: 'cra.findings', rows: 1 },
  { question: 'Show CRA findings for product billing', expect: 'cra.findings', rows: 0 },
  {
    question: 'Which Cyber Resilience Act findings are under assessment?',
    expect: 'cra.findings',
    rows: 0,
  },
  { question: 'List every CRA finding', expect: 'cra.findings', rows: 7 },
  {
    question: 'CRA findings of product nonexistent',
    expect: 'cra.findings',
    rows: 0,
    includes: 'no CRA product',
  },
  // TLS endpoints by quantum verdict (latest observation with a verdict).
  {
    question: 'Which TLS endpoints are quantum-vulnerable?',
    expect: 'quantum.tls_verdicts',
    rows: 2,
  },
  { question: 'Are our live endpoints quantum ready?', expect: 'quantum.tls_verdicts', rows: 4 },
  {
    question: 'Which endpoints use hybrid key exchange?',
    expect: 'quantum.tls_verdicts',
    rows: 1,
    first: { host: 'api.acme.test' },
  },
  { question: 'Which TLS hosts are quantum-safe?', expect: 'quantum.tls_verdicts', rows: 0 },
  { question: 'Quantum readiness of our TLS endpoints', expect: 'quantum.tls_verdicts', rows: 4 },
  {
    question: 'Which servers still negotiate vulnerable TLS key exchange?',
    expect: 'quantum.tls_verdicts',
    rows: 2,
  },
  // Deprecated, yanked or end-of-life packages in use.
  {
    question: 'Which deprecated packages are we using?',
    expect: 'packages.deprecated',
    rows: 1,
    first: { name: 'chalk', repository: 'acme/cli' },
  },
  { question: 'Do we use any deprecated dependencies?', expect: 'packages.deprecated', rows: 1 },
  { question: 'Which yanked versions do we use?', expect: 'packages.deprecated', rows: 0 },
  { question: 'Which end-of-life packages are in use?', expect: 'packages.deprecated', rows: 1 },
  {
    question: 'Are any of our libraries deprecated, yanked or end of life?',
    expect: 'packages.deprecated',
    rows: 2,
  },
  {
    question: 'Show unmaintained deprecated libs in repository cli',
    expect: 'packages.deprecated',
    rows: 1,
  },
  // Dependencies N majors behind.
  {
    question: 'Which dependencies are a major version behind?',
    expect: 'drift.majors_behind',
    rows: 4,
  },
  {
    question: 'Which packages are at least 2 majors behind?',
    expect: 'drift.majors_behind',
    rows: 0,
  },
  {
    question: 'Which npm dependencies are a major behind?',
    expect: 'drift.majors_behind',
    rows: 3,
  },
  {
    question: 'Dependencies 1 or more major versions behind in the api repo',
    expect: 'drift.majors_behind',
    rows: 1,
    first: { name: 'requests' },
  },
  { question: 'What is behind by one major release?', expect: 'drift.majors_behind', rows: 4 },
  // "major" without a version or "behind" is not this intent (added after the first try).
  { question: 'Which major vulnerabilities affect lodash?', expect: 'exposures.list', rows: 2 },
  // Repositories without a recent completed scan.
  {
    question: 'Which repositories have not been scanned in 30 days?',
    expect: 'scans.stale',
    rows: 3,
  },
  {
    question: 'Repositories without a completed scan in the last 60 days',
    expect: 'scans.stale',
    rows: 2,
  },
  {
    question: "Which repos haven't had a successful scan this week?",
    expect: 'scans.stale',
    rows: 3,
  },
  {
    question: 'Which repositories were never scanned?',
    expect: 'scans.stale',
    rows: 2,
    first: { repository: 'acme/billing' },
  },
  { question: 'Which projects have stale scans?', expect: 'scans.stale', rows: 3 },
  // Asked back or refused around the new intents.
  { question: 'Which deprecated packages are used in repository acme?', expect: C },
  { question: 'Deprecate the lodash package', expect: R },
  { question: 'Probe all TLS endpoints now', expect: R },
  { question: 'Remediate all CRA findings', expect: R },
];
