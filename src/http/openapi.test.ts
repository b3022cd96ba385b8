import { describe, expect, it } from 'vitest';
import { deriveOperationId } from './openapi';

describe('deriveOperationId (the naming rule of docs/http-api.md)', () => {
  it.each([
    ['GET', '/api/v1/repositories', true, 'listRepositories'],
    ['GET', '/api/v1/repositories/:repositoryId', false, 'getRepository'],
    ['PATCH', '/api/v1/repositories/:repositoryId', false, 'updateRepository'],
    ['DELETE', '/api/v1/repositories/:repositoryId', false, 'deleteRepository'],
    ['PUT', '/api/v1/policies/:policyId', false, 'replacePolicy'],
    ['GET', '/api/v1/repositories/:repositoryId/dependencies', true, 'listRepositoryDependencies'],
    ['GET', '/api/v1/repositories/:repositoryId/risk-summary', false, 'getRepositoryRiskSummary'],
    ['POST', '/api/v1/api-tokens', false, 'createApiToken'],
    ['POST', '/api/v1/policies', false, 'createPolicy'],
    [
      'POST',
      '/api/v1/repositories/:repositoryId/sbom/exports',
      false,
      'createRepositorySbomExport',
    ],
    ['GET', '/api/v1/vulnerability-exposures/:exposureId', false, 'getVulnerabilityExposure'],
    ['GET', '/api/v1/tenants/current/scoring-weights', false, 'getTenantScoringWeights'],
    ['GET', '/api/v1/status/public', false, 'getStatusPublic'],
    ['GET', '/api/v1/alert-rules/:alertRuleId', false, 'getAlertRule'],
    ['GET', '/api/v1/feature-flags', true, 'listFeatureFlags'],
  ] as const)('%s %s (lists: %s) → %s', (method, url, lists, expected) => {
    expect(deriveOperationId(method, url, lists)).toBe(expected);
  });

  it('refuses a method it has no verb for', () => {
    expect(() => deriveOperationId('OPTIONS', '/api/v1/repositories', false)).toThrow(
      /no operationId rule/,
    );
  });
});
