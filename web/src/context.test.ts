import { describe, expect, test } from 'vitest';
import { allows, holds } from './context';

const principal = (roles: string[], features: string[] = []) => ({
  roles,
  features: new Set(features),
});

describe('holds', () => {
  test('a stronger role includes the weaker ones, never the reverse', () => {
    expect(holds(principal(['owner']), 'admin')).toBe(true);
    expect(holds(principal(['admin']), 'member')).toBe(true);
    expect(holds(principal(['member']), 'admin')).toBe(false);
    expect(holds(principal(['viewer']), 'member')).toBe(false);
    expect(holds(principal(['viewer', 'admin']), 'admin')).toBe(true);
    expect(holds(principal([]), 'viewer')).toBe(false);
    expect(holds(principal(['unknown']), 'viewer')).toBe(false);
  });
});

describe('allows', () => {
  test('needs the feature and one of the roles (or stronger)', () => {
    const need = { feature: 'integrations', roles: ['admin'] as const };
    expect(allows(principal(['owner'], ['integrations']), need)).toBe(true);
    expect(allows(principal(['owner'], []), need)).toBe(false);
    expect(allows(principal(['member'], ['integrations']), need)).toBe(false);
    expect(allows(principal(['viewer']), {})).toBe(true);
  });
});
