import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Api } from './api/client';
import type { Watchable } from './api/store';

/**
 * Who is signed in. The plan and its feature flags come from GET /api/v1/feature-flags. The
 * tenant's name and the token's roles have no route yet (web/README.md "Missing routes"): they
 * stay null, and navigation then shows every entry the plan allows (the API still answers 403).
 */
export interface Principal {
  plan: string;
  features: ReadonlySet<string>;
  tenantName: string | null;
  roles: readonly string[] | null;
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

/** Whether the principal may see something needing `feature` and one of `roles`. */
export function allows(
  principal: Principal,
  need: { feature?: string; roles?: readonly string[] },
): boolean {
  if (need.feature && !principal.features.has(need.feature)) return false;
  if (need.roles && principal.roles !== null) {
    return need.roles.some((role) => principal.roles?.includes(role));
  }
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
