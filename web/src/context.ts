import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Api } from './api/client';
import type { Watchable } from './api/store';

/**
 * Who is signed in: the plan and its feature flags (GET /api/v1/feature-flags), the tenant's
 * name (GET /api/v1/tenants/current) and the token's roles in effect (GET
 * /api/v1/api-tokens/current). Navigation and actions follow them; the API still decides.
 */
export interface Principal {
  plan: string;
  features: ReadonlySet<string>;
  tenantName: string;
  roles: readonly string[];
  /** The signed-in token's id (the Settings token list marks it). */
  tokenId: string;
}

/** The API's roles, each including the ones before it (src/core/roles.ts). */
export const ROLE_ORDER = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLE_ORDER)[number];

/** Whether the principal holds `role` or a stronger one. */
export function holds(principal: Pick<Principal, 'roles'>, role: Role): boolean {
  const need = ROLE_ORDER.indexOf(role);
  return principal.roles.some((held) => ROLE_ORDER.findIndex((r) => r === held) >= need);
}

export interface AppContextValue {
  api: Api;
  principal: Principal;
  signOut: () => void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (value === null) throw new Error('useApp outside the signed-in shell');
  return value;
}

/**
 * Whether the principal may see something needing `feature` and one of `roles` (a stronger role
 * includes a weaker one: an owner may do what an admin may).
 */
export function allows(
  principal: Pick<Principal, 'features' | 'roles'>,
  need: { feature?: string; roles?: readonly Role[] },
): boolean {
  if (need.feature && !principal.features.has(need.feature)) return false;
  if (need.roles) return need.roles.some((role) => holds(principal, role));
  return true;
}

/** The current value of a Watchable, re-rendering on change. */
export function useWatch<T>(watchable: Watchable<T>): T {
  const [value, setValue] = useState(watchable.get());
  useEffect(() => {
    setValue(watchable.get());
    return watchable.subscribe(setValue);
  }, [watchable]);
  return value;
}
