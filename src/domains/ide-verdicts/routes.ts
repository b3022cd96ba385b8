import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ProblemError } from '../../core/problem';
import { withErrors } from '../../http/schemas';
import { tenantDb } from '../../http/scope';
import type { RouteDeps } from '../route-deps';
import { readPackages } from './inputs';
import { VerdictBatchRequest, VerdictBatchResponse } from './schemas';
import { type FiringPolicy, judgePackages, type PackageVerdictResult } from './service';

const num = (value: string | number | null) => (value === null ? null : Number(value));

function presentFiring({ policy: p, ...standing }: FiringPolicy) {
  return {
    policyId: p.id,
    name: p.name,
    severity: p.severity,
    action: p.action,
    status: standing.status,
    blocking: standing.blocking,
    violationId: standing.violationId,
    exceptionId: standing.exceptionId,
  };
}

function present(result: PackageVerdictResult) {
  const { asked, facts } = result;
  return {
    index: asked.index,
    ecosystem: asked.ecosystem.id,
    name: asked.name,
    version: asked.version,
    purl: asked.purl,
    packageId: result.packageId,
    seen: result.packageId !== null,
    verdict: result.verdict,
    reasons: result.packageId
      ? result.reasons
      : [
          'never seen by this service: judged from the advisory store only (no registry metadata, drift or health)',
          ...result.reasons,
        ],
    policies: result.firing.map(presentFiring),
    vulnerabilities: facts.vulnerabilities.items.map((item, i) => {
      const matched = result.matches[i];
      return {
        id: item.id,
        aliases: item.aliases,
        severity: item.severity === '' ? null : item.severity,
        cvss: item.cvss === 0 ? null : num(item.cvss),
        fixAvailable: item.fixAvailable,
        fixedVersions: item.fixedVersions,
        status: item.status,
        match: matched?.exact ? 'affected' : 'possibly_affected',
        malicious: matched?.malicious ?? false,
      };
    }),
    health: { known: facts.health.known, score: facts.health.known ? facts.health.score : null },
    knowledge: { advisories: true, ...result.knowledge },
  };
}

/**
 * POST /api/v1/ide/verdicts:batch (docs/policies.md#ide-verdicts). The colon is literal: Fastify
 * reads `::` as one `:` rather than a parameter.
 */
export function ideVerdictRoutes({ config }: Pick<RouteDeps, 'config'>): FastifyPluginAsyncTypebox {
  const deps = { policies: config.policies, packageIntel: config.packageIntel };
  return async (app) => {
    app.post(
      '/api/v1/ide/verdicts::batch',
      {
        bodyLimit: deps.policies.verdictBodyLimitBytes,
        schema: {
          tags: ['Policies'],
          operationId: 'createIdeVerdictsBatch',
          summary: 'Verdicts (allow, warn, block) for a batch of packages, with the reasons',
          body: VerdictBatchRequest,
          response: withErrors({ 200: VerdictBatchResponse }, [404, 413, 415]),
        },
        config: { role: 'member' },
      },
      async (request) => {
        const { packages, repositoryId } = request.body;
        const max = deps.policies.verdictMaxPackages;
        if (packages.length > max) {
          throw new ProblemError(413, `A batch asks about at most ${max} packages.`, {
            errors: { packages: [`at most ${max} items`] },
          });
        }
        const asked = readPackages(packages);
        const now = new Date();
        const { results, policies, repository } = await judgePackages(
          tenantDb(request),
          { packages: asked, repositoryId: repositoryId ?? null },
          deps.packageIntel,
          now,
        );
        return {
          items: results.map(present),
          repository:
            repository && repositoryId
              ? {
                  repositoryId,
                  verdict: repository.verdict,
                  reasons: repository.reasons,
                  policies: repository.firing.map(presentFiring),
                }
              : null,
          policiesEvaluated: policies,
          evaluatedAtUtc: now.toISOString(),
        };
      },
    );
  };
}
