import { expect } from 'vitest';
import { CRA_CATEGORIES } from '../../../src/domains/cra/products/classification';
import type { TestApp } from '../test-app';

/** CRA products created through the API. */

/** Creates a CRA product through the API and returns its id. */
export async function createCraProduct(
  t: TestApp,
  token: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.as(token, {
    method: 'POST',
    url: '/api/v1/cra/products',
    payload: { name: 'Gateway', versionLine: '2.x', manufacturer: 'Acme GmbH', ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().productId as string;
}

/**
 * The fields of a fully described important (class I) product built from these repositories:
 * support period, security contact and CVD policy set, as report packs and clocks need.
 */
export function importantProduct(repositoryIds: string[]) {
  return {
    name: 'Gateway',
    classification: 'important_class_i',
    category: Object.keys(CRA_CATEGORIES.important_class_i)[0],
    supportPeriodEnd: '2031-12-31',
    securityContact: 'security@acme.test',
    cvdPolicyUrl: 'https://acme.test/cvd',
    repositoryIds,
  };
}
