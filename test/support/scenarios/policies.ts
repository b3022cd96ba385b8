import { expect } from 'vitest';
import type { TestApp } from '../test-app';

/** Policies created through the API (the route validates the condition and queues evaluation). */

export interface PolicyFields {
  name?: string;
  condition: string;
  severity?: string;
  action?: string;
  [field: string]: unknown;
}

/** Creates a policy (default: high, warn) and returns its id; fails the test on any non-201. */
export async function createPolicy(t: TestApp, token: string, fields: PolicyFields) {
  const res = await t.as(token, {
    method: 'POST',
    url: '/api/v1/policies',
    payload: { name: 'Test policy', severity: 'high', action: 'warn', ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().policyId as string;
}
