import { expect } from 'vitest';
import type { Plan } from '../../../src/core/plans';
import type { TestApp, TestTenant } from '../test-app';

/** Tenants and their tokens. A tenant comes from `t.createTenant` (owner token included). */

/** Tenant `A` and the other tenant `B` (same plan) that the isolation checks use. */
export async function twoTenants(
  t: TestApp,
  plan: Plan = 'enterprise',
  names: [string, string] = ['A', 'B'],
): Promise<{ a: TestTenant; b: TestTenant }> {
  const a = await t.createTenant(plan, names[0]);
  const b = await t.createTenant(plan, names[1]);
  return { a, b };
}

/**
 * A token of `tenant` holding only `role` (viewer, member, admin), created through the API.
 * It expires in a day unless `expiresAtUtc` says otherwise (null: never).
 */
export async function tokenWithRole(
  t: TestApp,
  tenant: TestTenant,
  role: string,
  expiresAtUtc: string | null = new Date(Date.now() + 86_400_000).toISOString(),
): Promise<string> {
  const res = await t.as(tenant.token, {
    method: 'POST',
    url: '/api/v1/api-tokens',
    payload: { name: role, roleScopeJson: JSON.stringify({ roles: [role] }), expiresAtUtc },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().rawSecret as string;
}

/**
 * Tenants A and B (enterprise), a team-plan tenant (`team`, for plan limits) and a token of A
 * holding only `role`, created in that order: the cast of the CRA tests.
 */
export async function tenantsWithTeam(t: TestApp, role: string) {
  const { a, b } = await twoTenants(t);
  const team = await t.createTenant('team', 'Team');
  const token = await tokenWithRole(t, a, role);
  return { a, b, team, token };
}
