import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { enqueueEvent, enqueueEvents, enqueueEventToTenants } from '../jobs/outbox';

/**
 * The domains' internal events: their names, their payloads, and typed ways to emit them. The
 * outbox (src/jobs/outbox.ts) stores and relays an event by name and knows no payload; the
 * payloads live here, beside the domains that emit and subscribe to them, in one module (a file
 * beside the domain folders, so emitting one is no import of another domain).
 */
/** Internal events and their payloads (docs/events.md describes each, with its JSON Schema). */
export interface EventPayloads {
  /** A scan or SBOM import replaced a repository's dependencies. */
  'dependencies.changed': DependenciesChanged;
  /** Matching opened new exposures in one repository (one event per refresh, in chunks). */
  'exposures.opened': ExposuresChanged;
  /** Exposures closed as fixed came back (the version was reintroduced). */
  'exposures.reopened': ExposuresChanged;
  /** A refresh opened or reopened malicious-package exposures (MAL- records). */
  'exposures.malicious_found': MaliciousExposuresFound;
  /** An advisory import raised a vulnerability's severity; one event per tenant using it. */
  'vulnerability.severity_raised': VulnerabilitySeverityRaised;
  /** A policy opened a violation. */
  'policy_violation.opened': PolicyViolationOpened;
  /** The registry marked a package deprecated; one event per tenant using or watching it. */
  'package.deprecated': PackageDeprecated;
  /** Versions of a package in use were yanked; one event per tenant using them. */
  'package.versions_yanked': PackageVersionsYanked;
  /** A package's health score (default weights) changed; one event per tenant using it. */
  'package.health_changed': PackageHealthChanged;
  /** A package's maintainers changed; one event per tenant using or watching it. */
  'package.maintainers_changed': PackageMaintainersChanged;
  /** A package has a new latest release; one event per tenant using or watching it. */
  'package.released': PackageReleased;
  /** A scan ended failed. */
  'scan.failed': ScanFailed;
  /** The system disabled a webhook integration (410 from the receiver, or out of attempts). */
  'integration.disabled': IntegrationDisabled;
  /** The vulnerability matcher refreshed a repository's exposures (after a scan or an advisory change). */
  'exposures.refreshed': ExposuresRefreshed;
  /** Exposures' statuses changed outside a refresh (a person, a rule, an acceptance's expiry). */
  'exposures.status_changed': PackageFactsChanged;
  /** A repository's violations moved (evaluation, triage, exception), or a scan was evaluated. */
  'policy_violations.changed': PolicyViolationsChanged;
  /** A drift snapshot was recomputed with other totals (registry metadata it waited for arrived). */
  'drift.updated': DependenciesChanged;
  /** The drift of some dependencies of a repository's latest snapshot changed (a fact of policies). */
  'dependency_drift.changed': PackageFactsChanged;
  /** A repository was deleted with everything derived from it. */
  'repository.deleted': RepositoryChanged;
  /** A CRA product's vulnerability is on the known-exploited list; once per product and vulnerability. */
  'cra.actively_exploited': CraActivelyExploited;
  /** An Article 14 clock falls due soon (`due_soon`) or passed its due time unmet (`missed`). */
  'cra.clock_due': CraClockDue;
  /**
   * A repository's quantum inventory changed (a scan saw other findings or certificates, a
   * person triaged a finding, a linked endpoint showed another chain): a fact of policies, the
   * repository's (`packageIds` null: repository conditions read it, docs/policies.md).
   */
  'quantum.inventory_changed': PackageFactsChanged;
  /** A watched TLS endpoint's quantum verdict differs from its previous one. */
  'quantum.tls_verdict_changed': QuantumTlsVerdictChanged;
  /** A certificate of a watched endpoint's chain entered its last 30 days; once per endpoint. */
  'quantum.tls_certificate_expiring': QuantumTlsCertificateExpiring;
}

export type EventName = keyof EventPayloads;

export interface IntegrationDisabled {
  integrationId: string;
  name: string;
  reason: 'gone' | 'failing';
}

export interface CraActivelyExploited {
  tenantId: string;
  productId: string;
  vulnerabilityId: string;
  cveId: string;
  exposureId: string;
  detectedAt: string;
}

export interface CraClockDue {
  clockId: string;
  productId: string;
  trigger: 'vulnerability' | 'incident';
  kind: 'early_warning' | 'notification' | 'final_report';
  stage: 'due_soon' | 'missed';
  dueAt: string;
  vulnerabilityId: string | null;
  incidentId: string | null;
}

/** The watched TLS endpoint an event is about (docs/quantum.md#tls-observations). */
export interface TlsEndpointRef {
  endpointId: string;
  host: string;
  port: number;
  serverName: string | null;
}

export type TlsVerdictState = 'vulnerable' | 'hybrid' | 'pq-kex' | 'quantum-safe';

export interface QuantumTlsVerdictChanged extends TlsEndpointRef {
  observationId: string;
  previousState: TlsVerdictState;
  state: TlsVerdictState;
  hybridKexClassicalAuth: boolean;
  verdictReason: string | null;
  observedAt: string;
}

export interface QuantumTlsCertificateExpiring extends TlsEndpointRef {
  observationId: string;
  subject: string;
  issuer: string;
  serialNumber: string;
  fingerprintSha256: string;
  notAfter: string;
  /** Whole days until notAfter, rounded down; negative once it has passed. */
  daysLeft: number;
  expired: boolean;
}

export interface ExposuresRefreshed {
  repositoryId: string;
  /**
   * The scan whose dependencies were matched (absent after an advisory change): the policy
   * evaluation that follows marks that scan evaluated in its log (docs/policies.md#ci-gate).
   */
  scanId?: string;
  /** Only these packages' exposures were refreshed (an advisory change); absent: every one. */
  packageIds?: string[];
}

/** The repository whose state changed. */
export interface RepositoryChanged {
  repositoryId: string;
}

/**
 * Facts of some of a repository's dependencies changed: the packages they are on, or null for
 * more than a thousand of them (`changedPackageIds`), when listing costs more than it saves.
 */
export interface PackageFactsChanged {
  repositoryId: string;
  packageIds: string[] | null;
}

const MAX_LISTED_PACKAGES = 1000;

/** The packages a PackageFactsChanged names: each once, or null past a thousand. */
export function changedPackageIds(packageIds: Iterable<string>): string[] | null {
  const unique = [...new Set(packageIds)];
  return unique.length > MAX_LISTED_PACKAGES ? null : unique;
}

export interface PolicyViolationsChanged {
  repositoryId: string;
  /**
   * The scan whose evaluation this was (from `exposures.refreshed`): emitted once that evaluation
   * ended, even when it changed nothing, so a scan's results are complete after this event.
   */
  scanId?: string;
}

export interface DependenciesChanged {
  repositoryId: string;
  scanId: string;
}

export interface ExposureSummary {
  exposureId: string;
  packageId: string;
  ecosystem: string;
  packageName: string;
  version: string | null;
  vulnerabilityId: string;
  canonicalId: string;
  severity: string | null;
  /** `malicious` when the vulnerability has a live MAL- record, else `vulnerability`. */
  kind: 'vulnerability' | 'malicious';
}

export interface ExposuresChanged {
  repositoryId: string;
  scanId: string | null;
  exposures: ExposureSummary[];
}

export interface MaliciousExposuresFound {
  repositoryId: string;
  scanId: string | null;
  /** `reintroduced`: a malicious version closed as fixed came back. */
  exposures: (ExposureSummary & { reintroduced: boolean })[];
}

export interface PackageRef {
  ecosystem: string;
  name: string;
}

export interface VulnerabilitySeverityRaised {
  vulnerabilityId: string;
  canonicalId: string;
  previousSeverity: string | null;
  severity: string;
  packages: PackageRef[];
}

export interface PolicyViolationOpened {
  policyId: string;
  violationId: string;
  repositoryId: string;
  packageId: string;
  severity: string;
  action: string;
}

interface CataloguePackage {
  packageId: string;
  ecosystem: string;
  name: string;
}

export interface PackageDeprecated extends CataloguePackage {
  message: string;
  successor: string | null;
}

export interface PackageVersionsYanked extends CataloguePackage {
  versions: string[];
}

export interface PackageHealthChanged extends CataloguePackage {
  previousScore: number | null;
  score: number;
}

export interface PackageMaintainersChanged extends CataloguePackage {
  added: string[];
  removed: string[];
}

export interface PackageReleased extends CataloguePackage {
  version: string;
  previousVersion: string | null;
}

export interface ScanFailed {
  scanId: string;
  repositoryId: string;
  error: string | null;
}

/** Which jobs each event starts (src/background-jobs.ts declares the map). */
export type EventSubscriptions = Readonly<Partial<Record<EventName, readonly string[]>>>;

/**
 * Records an event in the caller's transaction: one outbox row, which the relay turns into one
 * job per subscriber, so subscribers run independently and each retries on its own.
 */
export function emitEvent<E extends EventName>(
  db: Kysely<DB>,
  event: E,
  payload: { tenantId: string; data: EventPayloads[E]; correlationId?: string | null },
): Promise<void> {
  return enqueueEvent(db, event, payload);
}

/**
 * Several events of one kind in the caller's transaction, in batch rows the relay expands into
 * the same jobs as one row per event (src/jobs/outbox.ts, `enqueueEvents`).
 */
export function emitEvents<E extends EventName>(
  db: Kysely<DB>,
  event: E,
  payload: { tenantId: string; data: EventPayloads[E][]; correlationId?: string | null },
): Promise<void> {
  return enqueueEvents(db, event, payload);
}

/**
 * The same event for several tenants in one statement: a change to shared knowledge (the
 * package catalogue, the advisory store) fans out to the tenants it concerns (set-based).
 */
export function emitEventToTenants<E extends EventName>(
  db: Kysely<DB>,
  event: E,
  tenantIds: readonly string[],
  data: EventPayloads[E],
  correlationId: string | null = null,
): Promise<number> {
  return enqueueEventToTenants(db, event, tenantIds, data, correlationId);
}
