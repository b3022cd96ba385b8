import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';

/**
 * The quantum readiness part of the global dashboard (docs/workspace.md#quantum-readiness):
 * per repository and for the tenant, the unresolved quantum findings by classification, the
 * certificates (weak, quantum-vulnerable, expiring, expired), the watched TLS endpoints by
 * their latest verdict, and the readiness share. Read live from the quantum inventory's tables
 * through the schema type (analytics imports no quantum module), three grouped statements: the
 * inventory is bounded per repository (at most 500 key and certificate files, 200 endpoints per
 * tenant), and its changes come from scans, triage and probes, not from the rollups' events.
 */

const CLASSIFICATIONS = {
  weak: 'weak',
  'deprecated-2030': 'deprecated2030',
  'disallowed-2035': 'disallowed2035',
  hybrid: 'hybrid',
  'quantum-safe': 'quantumSafe',
} as const;
type ClassificationKey = (typeof CLASSIFICATIONS)[keyof typeof CLASSIFICATIONS];

const VERDICTS = {
  vulnerable: 'vulnerable',
  hybrid: 'hybrid',
  'pq-kex': 'pqKex',
  'quantum-safe': 'quantumSafe',
  unreachable: 'unreachable',
  refused: 'refused',
} as const;
type VerdictKey = (typeof VERDICTS)[keyof typeof VERDICTS] | 'notProbed';

/** Classifications and TLS verdicts that count as ready (post-quantum or hybrid). */
const READY = new Set(['hybrid', 'quantum-safe', 'pq-kex']);
const VULNERABLE = new Set(['weak', 'deprecated-2030', 'disallowed-2035']);
const EXPIRY_DAYS = 30;
/** Repositories listed, least ready first (the tenant's totals count every one). */
export const MAX_READINESS_REPOSITORIES = 100;

export interface Readiness {
  findings: { unresolved: number; byClassification: Record<ClassificationKey, number> };
  certificates: {
    total: number;
    weak: number;
    quantumVulnerable: number;
    expiringWithin30Days: number;
    expired: number;
  };
  tlsEndpoints: { total: number; byVerdict: Record<VerdictKey, number> };
  /** Ready assets over all assets (findings that count, certificates, probed endpoints). */
  readiness: number | null;
  /** The parts of `readiness`. */
  assets: { total: number; ready: number };
}

function emptyReadiness(): Readiness {
  const byClassification = Object.fromEntries(
    Object.values(CLASSIFICATIONS).map((key) => [key, 0]),
  ) as Record<ClassificationKey, number>;
  const byVerdict = Object.fromEntries(
    [...Object.values(VERDICTS), 'notProbed'].map((key) => [key, 0]),
  ) as Record<VerdictKey, number>;
  return {
    findings: { unresolved: 0, byClassification },
    certificates: { total: 0, weak: 0, quantumVulnerable: 0, expiringWithin30Days: 0, expired: 0 },
    tlsEndpoints: { total: 0, byVerdict },
    readiness: null,
    assets: { total: 0, ready: 0 },
  };
}

interface FindingCount {
  repository_id: string;
  classification: keyof typeof CLASSIFICATIONS;
  n: string | number;
}
interface CertificateCount {
  repository_id: string | null;
  classification: string;
  n: string | number;
  expiring: string | number;
  expired: string | number;
}
interface EndpointState {
  repository_id: string | null;
  state: keyof typeof VERDICTS | null;
}

async function findingCounts(db: Kysely<DB>) {
  const result = await sql<FindingCount>`
    SELECT repository_id, classification, count(*) AS n
    FROM quantum_findings
    WHERE present AND status NOT IN ('not_affected', 'false_positive')
    GROUP BY repository_id, classification`.execute(db);
  return result.rows;
}

/** Certificates by repository (a linked endpoint's chain counts for its repository). */
async function certificateCounts(db: Kysely<DB>, now: Date) {
  const horizon = new Date(now.getTime() + EXPIRY_DAYS * 86_400_000);
  const result = await sql<CertificateCount>`
    SELECT coalesce(c.repository_id, e.repository_id) AS repository_id, c.classification,
      count(*) AS n,
      count(*) FILTER (WHERE c.not_after >= ${now} AND c.not_after < ${horizon}) AS expiring,
      count(*) FILTER (WHERE c.not_after < ${now}) AS expired
    FROM quantum_certificates c
    LEFT JOIN quantum_tls_endpoints e ON e.tenant_id = c.tenant_id AND e.id = c.endpoint_id
    GROUP BY 1, 2`.execute(db);
  return result.rows;
}

/** Each endpoint's latest observation's state (null before its first probe). */
async function endpointStates(db: Kysely<DB>) {
  const result = await sql<EndpointState>`
    SELECT e.repository_id, latest.state
    FROM quantum_tls_endpoints e
    LEFT JOIN LATERAL (
      SELECT o.state FROM quantum_tls_observations o
      WHERE o.tenant_id = e.tenant_id AND o.endpoint_id = e.id
      ORDER BY o.observed_at DESC, o.id DESC LIMIT 1
    ) latest ON true`.execute(db);
  return result.rows;
}

function addAsset(target: Readiness, ready: boolean, n: number) {
  target.assets.total += n;
  if (ready) target.assets.ready += n;
}

function addFindings(target: Readiness, row: FindingCount) {
  const n = Number(row.n);
  target.findings.unresolved += n;
  target.findings.byClassification[CLASSIFICATIONS[row.classification]] += n;
  addAsset(target, READY.has(row.classification), n);
}

function addCertificates(target: Readiness, row: CertificateCount) {
  const n = Number(row.n);
  const c = target.certificates;
  c.total += n;
  if (row.classification === 'weak') c.weak += n;
  if (VULNERABLE.has(row.classification)) c.quantumVulnerable += n;
  c.expiringWithin30Days += Number(row.expiring);
  c.expired += Number(row.expired);
  addAsset(target, READY.has(row.classification), n);
}

function addEndpoint(target: Readiness, row: EndpointState) {
  target.tlsEndpoints.total++;
  target.tlsEndpoints.byVerdict[row.state ? VERDICTS[row.state] : 'notProbed']++;
  // An endpoint counts as an asset once a probe gave it a verdict.
  if (row.state && row.state !== 'unreachable' && row.state !== 'refused') {
    addAsset(target, READY.has(row.state), 1);
  }
}

function finish(target: Readiness): Readiness {
  const { total, ready } = target.assets;
  target.readiness = total === 0 ? null : Math.round((ready / total) * 1000) / 1000;
  return target;
}

/** The tenant's quantum readiness, and each inventoried repository's (least ready first). */
export async function quantumReadiness(db: Kysely<DB>, now: Date) {
  const tenant = emptyReadiness();
  const byRepository = new Map<string, Readiness>();
  const of = (id: string | null) => {
    if (id === null) return null;
    let entry = byRepository.get(id);
    if (!entry) {
      entry = emptyReadiness();
      byRepository.set(id, entry);
    }
    return entry;
  };
  for (const row of await findingCounts(db)) {
    addFindings(tenant, row);
    addFindings(of(row.repository_id) as Readiness, row);
  }
  for (const row of await certificateCounts(db, now)) {
    addCertificates(tenant, row);
    const entry = of(row.repository_id);
    if (entry) addCertificates(entry, row);
  }
  for (const row of await endpointStates(db)) {
    addEndpoint(tenant, row);
    const entry = of(row.repository_id);
    if (entry) addEndpoint(entry, row);
  }
  return { tenant: finish(tenant), repositories: await namedRepositories(db, byRepository) };
}

async function namedRepositories(db: Kysely<DB>, byRepository: Map<string, Readiness>) {
  const ids = [...byRepository.keys()];
  const names = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .selectFrom('repositories')
      .select(['id', 'name'])
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const row of rows) names.set(row.id, row.name);
  }
  const listed = [...byRepository]
    .filter(([id]) => names.has(id))
    .map(([id, readiness]) => ({
      repositoryId: id,
      name: names.get(id) as string,
      ...finish(readiness),
    }))
    .sort(
      (x, y) =>
        (x.readiness ?? 1) - (y.readiness ?? 1) ||
        y.findings.unresolved - x.findings.unresolved ||
        x.name.localeCompare(y.name) ||
        x.repositoryId.localeCompare(y.repositoryId),
    );
  return {
    total: listed.length,
    items: listed.slice(0, MAX_READINESS_REPOSITORIES),
    truncated: listed.length > MAX_READINESS_REPOSITORIES,
  };
}
