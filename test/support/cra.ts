import { expect } from 'vitest';
import type { TestApp, TestTenant } from './test-app';

/** A token of `tenant` holding only `role` (viewer, member, admin). */
export async function tokenWithRole(t: TestApp, tenant: TestTenant, role: string): Promise<string> {
  const res = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/api-tokens',
    payload: {
      name: role,
      roleScopeJson: JSON.stringify({ roles: [role] }),
      expiresAtUtc: new Date(Date.now() + 86_400_000).toISOString(),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().rawSecret as string;
}

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

/** A KEV catalogue entry as CISA publishes them (the values are made up for tests). */
export function kevEntry(cveID: string, fields: Record<string, unknown> = {}) {
  return {
    cveID,
    vendorProject: 'Example Vendor',
    product: 'Example Product',
    vulnerabilityName: `Example Vendor ${cveID} flaw`,
    dateAdded: '2026-03-02',
    shortDescription: 'A made-up entry for tests.',
    requiredAction: 'Apply mitigations per vendor instructions.',
    dueDate: '2026-03-23',
    knownRansomwareCampaignUse: 'Unknown',
    notes: '',
    cwes: ['CWE-787'],
    ...fields,
  };
}

/** A KEV catalogue document with these entries. */
export function kevCatalogue(entries: unknown[], catalogVersion = '2026.03.02') {
  return {
    title: 'Test Known Exploited Vulnerabilities Catalog',
    catalogVersion,
    dateReleased: '2026-03-02T15:00:00.000Z',
    count: entries.length,
    vulnerabilities: entries,
  };
}
