import type { Insertable, Kysely } from 'kysely';
import type { Principal } from '../../core/principal';
import { badRequest, FieldErrorCollector, notFound, unprocessable } from '../../core/problem';
import { isUuid } from '../../core/uuid';
import { newId } from '../../db/ids';
import type { DB } from '../../db/schema';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import { ECOSYSTEMS, type Ecosystem } from '../../ecosystems/types';
import { formatVers, parseVers } from '../../ecosystems/vers';
import { parseEnum } from '../../http/query';
import { mapPurl } from '../../sbom/purl-map';
import {
  announceStatusChanges,
  applyTriageRules,
  withdrawRule,
} from '../exposures/automatic/triage-apply';
import { applyTransition } from '../exposures/state-machine';
import {
  canonicalIdOf,
  findTriageRule,
  insertTriageRule,
  knownRepositories,
  markRevoked,
  type TriageRuleRow,
} from './store';
import { RULE_STATUSES, type RuleOrigin, type RuleStatus, type TriageRuleTable } from './tables';

export interface CreateRuleBody {
  vulnerability: string;
  purl?: string | null;
  ecosystem?: string | null;
  packageName?: string | null;
  versionRange?: string | null;
  repositoryIds?: string[] | null;
  status: string;
  justification?: string | null;
  reason?: string | null;
  expiresAtUtc?: string | null;
}

/** CVE-2021-44228, GHSA-xxxx-xxxx-xxxx, MAL-2024-1, PYSEC-2021-1, GO-2022-0001, RUSTSEC-... */
export const ADVISORY_IDENTIFIER = /^[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9][A-Za-z0-9._:-]{0,120}$/;

interface PackageRef {
  ecosystem: Ecosystem;
  name: string;
}

function packageOf(body: CreateRuleBody, errors: FieldErrorCollector): PackageRef | null {
  if (body.purl) {
    const mapped = mapPurl(body.purl, null);
    if (!mapped.ok) {
      errors.add(
        'purl',
        mapped.reason === 'invalid'
          ? 'is not a package URL'
          : `type ${mapped.type} is not supported`,
      );
      return null;
    }
    return { ecosystem: mapped.value.ecosystem.id, name: mapped.value.name };
  }
  const ecosystem = body.ecosystem ? parseEnum('ecosystem', body.ecosystem, ECOSYSTEMS) : undefined;
  const name = body.packageName?.trim();
  if (!ecosystem) errors.add('ecosystem', 'is required (or give purl)');
  if (!name) errors.add('packageName', 'is required (or give purl)');
  if (!ecosystem || !name) return null;
  return { ecosystem, name: getEcosystem(ecosystem).normaliseName(name) };
}

/** The identifier the rule matches: as given, or the canonical one of a vulnerability UUID. */
async function vulnerabilityRef(
  db: Kysely<DB>,
  given: string,
  errors: FieldErrorCollector,
): Promise<string | null> {
  const text = given.trim();
  if (isUuid(text)) {
    const canonical = await canonicalIdOf(db, text);
    if (!canonical) errors.add('vulnerability', 'no vulnerability has this id');
    return canonical ?? null;
  }
  if (!ADVISORY_IDENTIFIER.test(text)) {
    errors.add(
      'vulnerability',
      'must be an advisory identifier (CVE-..., GHSA-..., MAL-...) or a vulnerability id',
    );
    return null;
  }
  return text;
}

function versionRangeOf(body: CreateRuleBody, pkg: PackageRef | null, errors: FieldErrorCollector) {
  if (!body.versionRange) return null;
  const parsed = parseVers(body.versionRange);
  if (!parsed.ok) {
    errors.add('versionRange', parsed.message);
    return null;
  }
  const scheme = pkg ? getEcosystem(pkg.ecosystem).purlType : null;
  if (scheme && !['semver', 'generic', scheme].includes(parsed.value.scheme)) {
    errors.add('versionRange', `the scheme must be ${scheme} (the package's), semver or generic`);
  }
  return formatVers(parsed.value);
}

export type NewTriageRule = Omit<Insertable<TriageRuleTable>, 'tenant_id'> & {
  id: string;
  vulnerability_ref: string;
  ecosystem: Ecosystem;
  package_name: string;
  version_range: string | null;
  repository_ids: string[];
  status: RuleStatus;
  justification: string | null;
  reason: string | null;
  expires_at: Date | null;
};

/** Checks the body: 400 for what cannot be read, 422 for a status rule broken; writes nothing. */
export async function checkTriageRule(
  db: Kysely<DB>,
  principal: Principal,
  body: CreateRuleBody,
  origin: RuleOrigin,
): Promise<NewTriageRule> {
  const errors = new FieldErrorCollector();
  const ref = await vulnerabilityRef(db, body.vulnerability, errors);
  const pkg = packageOf(body, errors);
  const versionRange = versionRangeOf(body, pkg, errors);
  const repositoryIds = [...new Set(body.repositoryIds ?? [])];
  const known = await knownRepositories(db, repositoryIds);
  for (const id of repositoryIds) {
    if (!known.has(id))
      errors.add('repositoryIds', `${id} is not one of the tenant's repositories`);
  }
  const status = parseEnum('status', body.status, RULE_STATUSES);
  if (!status) errors.add('status', `is required: one of ${RULE_STATUSES.join(', ')}`);
  errors.throwIfAny(400);
  const expiresAt = body.expiresAtUtc ? new Date(body.expiresAtUtc) : null;
  if (expiresAt && Number.isNaN(expiresAt.getTime())) {
    throw badRequest('expiresAtUtc is not a date.', { expiresAtUtc: ['is not a date'] });
  }
  const checked = applyTransition(
    'open',
    {
      status: status as RuleStatus,
      justification: body.justification,
      reason: body.reason,
      expiresAt,
    },
    new Date(),
  );
  if (!checked.ok) throw unprocessable('The rule is not valid.', checked.errors);
  const outcome = checked.outcome;
  return {
    id: newId(),
    vulnerability_ref: ref as string,
    ecosystem: (pkg as PackageRef).ecosystem,
    package_name: (pkg as PackageRef).name,
    version_range: versionRange,
    repository_ids: repositoryIds,
    status: status as RuleStatus,
    justification: outcome.justification,
    reason: outcome.reason,
    expires_at: outcome.acceptedUntil,
    origin,
    created_by_token_id: principal.tokenId,
  };
}

/** Checks and stores a rule, and settles the open exposures it covers. */
export async function createTriageRule(
  db: Kysely<DB>,
  principal: Principal,
  body: CreateRuleBody,
  origin: RuleOrigin = 'api',
): Promise<{ rule: TriageRuleRow; settled: number }> {
  const values = await checkTriageRule(db, principal, body, origin);
  await insertTriageRule(db, values);
  const settled = await applyTriageRules(db, {
    packages: [{ ecosystem: values.ecosystem, packageName: values.package_name }],
  });
  await announceStatusChanges(db, principal.tenantId, settled);
  const rule = await findTriageRule(db, values.id);
  if (!rule) throw notFound('The triage rule');
  return { rule, settled: settled.size };
}

/** Revokes a live rule and reopens what it settled; 404 when unknown or already revoked. */
export async function revokeTriageRule(
  db: Kysely<DB>,
  principal: Principal,
  id: string,
): Promise<number> {
  const revoked = await markRevoked(db, id, principal.tokenId);
  if (!revoked) throw notFound('The triage rule');
  return withdrawRule(db, principal.tenantId, revoked);
}
