import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { compositeKey } from '../src/core/composite-key';
import { type CompiledCondition, compileCondition } from '../src/domains/policies/evaluation/cel';
import { assembleFacts, type ExposureRow } from '../src/domains/policies/facts/store';
import { extractPath } from '../src/ecosystems/extract-tree';
import { type AuditFinding, auditExtraction, prepareAdvisories } from '../src/intel/osv/audit';
import { loadAdvisories } from '../src/intel/osv/load';
import { DEFAULT_RISK_SETTINGS } from '../src/intel/risk/indicators';
import { UsageError } from './errors';
import type { GateFinding, GateResult } from './gate-report';

/**
 * The offline gate: the pipeline of `driftwatch audit` (extract the tree, match OSV advisories
 * read from disk), then the policies of a local file evaluated over facts built by the service's
 * own facts builder. Drift, health, licence and release facts are unknown offline.
 */

const HELP = 'driftwatch gate --help';
const ACTIONS = new Set(['inform', 'warn', 'block']);

interface LocalPolicy {
  name: string;
  severity: string;
  action: string;
  ecosystems: string[];
  condition: CompiledCondition;
}

/** `{ "policies": [{ name, condition, severity, action, scope?: { ecosystems } }] }` or an array. */
export async function readPolicyFile(path: string): Promise<LocalPolicy[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read the policy file ${path}: ${(error as Error).message}`, HELP);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { policies?: unknown })?.policies;
  if (!Array.isArray(list) || list.length === 0) {
    throw new UsageError(`${path} holds no policies ({"policies": [...]})`, HELP);
  }
  return list.map((entry: Record<string, unknown>, index) => {
    const name = typeof entry.name === 'string' ? entry.name : `policy ${index + 1}`;
    const compiled = compileCondition(typeof entry.condition === 'string' ? entry.condition : '');
    if (!compiled.ok) {
      throw new UsageError(`policy "${name}": condition ${compiled.errors.join('; ')}`, HELP);
    }
    const scope = (entry.scope ?? {}) as { ecosystems?: unknown };
    return {
      name,
      severity: typeof entry.severity === 'string' ? entry.severity.toLowerCase() : 'high',
      // An action this version does not know blocks (fail safe).
      action: typeof entry.action === 'string' ? entry.action.toLowerCase() : 'block',
      ecosystems: Array.isArray(scope.ecosystems)
        ? scope.ecosystems.map((e) => String(e).toLowerCase())
        : [],
      condition: compiled.condition,
    };
  });
}

function exposureOf(finding: AuditFinding): ExposureRow {
  return {
    package_id: '',
    version: finding.version ?? '',
    status: finding.status === 'affected' ? 'affected' : 'open',
    fixed_versions: finding.fixedVersions,
    canonical_id: finding.vulnerabilityId,
    aliases: finding.aliases,
    severity_rating: finding.kind === 'malicious' ? 'critical' : finding.severity,
    severity_score: finding.score,
    kind: finding.kind,
  };
}

/** The fact groups only advisories fill: without --osv they would read as "nothing found". */
const ADVISORY_GROUPS = new Set(['vulnerabilities', 'malicious']);

/**
 * Without --osv a policy that reads vulnerability facts cannot be judged: it would see none and
 * pass, so the run is an error (exit 2) naming the policies, never a pass.
 */
function requireAdvisories(policies: LocalPolicy[], osv: string[]): void {
  if (osv.length > 0) return;
  const needing = policies.filter((p) =>
    p.condition.reads.groups.some((group) => ADVISORY_GROUPS.has(group)),
  );
  if (needing.length === 0) return;
  const names = needing.map((p) => `"${p.name}"`).join(', ');
  throw new UsageError(
    `policy ${names} reads vulnerability facts and no --osv was given: without advisories it could only pass; give --osv PATH (OSV records) or drop the policy`,
    HELP,
  );
}

export async function runOffline(
  target: string,
  options: { policyFile: string; osv: string[] },
): Promise<GateResult> {
  const policies = await readPolicyFile(options.policyFile);
  requireAdvisories(policies, options.osv);
  const tree = await extractPath(target).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${target}${error.code ? ` (${error.code})` : ''}`, HELP);
  });
  const packages = new Set<string>();
  for (const file of tree.files) {
    for (const dep of file.dependencies) packages.add(compositeKey(file.ecosystem, dep.name));
  }
  const notes: string[] = [];
  let findings: AuditFinding[] = [];
  if (options.osv.length > 0) {
    const loaded = await loadAdvisories(options.osv, { packages });
    if (loaded.errors.length > 0) {
      throw new UsageError(`cannot read advisories: ${loaded.errors[0]?.message}`, HELP);
    }
    findings = auditExtraction(tree, prepareAdvisories(loaded.advisories)).findings;
  } else notes.push('no --osv given: vulnerability facts are empty');
  const byDependency = new Map<string, AuditFinding[]>();
  for (const f of findings) {
    const key = compositeKey(f.file, f.name, f.version ?? '');
    byDependency.set(key, [...(byDependency.get(key) ?? []), f]);
  }
  const repository = { name: basename(resolve(target)), criticality: '', lifecycle: 'active' };
  const now = new Date();
  const out: GateFinding[] = [];
  let evaluated = 0;
  for (const file of tree.files) {
    for (const dep of file.dependencies) {
      evaluated++;
      const version = dep.version ?? '';
      const matched = byDependency.get(compositeKey(file.path, dep.name, version)) ?? [];
      const facts = assembleFacts(
        {
          ecosystem: file.ecosystem,
          name: dep.name,
          version,
          purl: dep.purl,
          direct: dep.direct,
          scope: dep.scope,
          resolution: dep.resolution,
          file: file.path,
          files: [file.path],
        },
        {
          exposures: matched.map(exposureOf),
          drift: undefined,
          // Offline there are no registry facts: risk judges the name and the declaration alone.
          catalogue: undefined,
          usage: [
            {
              repositoryId: '',
              repositoryName: repository.name,
              version: dep.version,
              resolution: dep.resolution,
              source: dep.source,
              file: file.path,
              observedAt: now,
            },
          ],
          riskSettings: DEFAULT_RISK_SETTINGS,
        },
        repository,
        now,
      );
      for (const policy of policies) {
        if (
          policy.ecosystems.length > 0 &&
          !policy.ecosystems.includes(file.ecosystem.toLowerCase())
        )
          continue;
        if (!policy.condition.holds(facts)) continue;
        const known = ACTIONS.has(policy.action);
        if (known && policy.action !== 'block') continue;
        out.push({
          policyId: null,
          policyName: policy.name,
          severity: policy.severity,
          action: policy.action,
          status: 'open',
          ecosystem: file.ecosystem,
          packageName: dep.name,
          version: dep.version,
          purl: dep.purl,
          file: file.path,
          line: dep.line,
          violationId: null,
          reason: known
            ? 'action block'
            : `unknown action "${policy.action}": blocking (fail safe)`,
        });
      }
    }
  }
  return { mode: 'offline', target, scanId: null, evaluated, findings: out, notes };
}
