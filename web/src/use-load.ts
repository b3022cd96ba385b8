import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Api } from './api/client';
import { type ApiProblem, asProblem } from './api/problem';
import { useApp } from './context';

/** A screen's data: loading, loaded or failed with a problem (ErrorPanel shows it). */
export type Loadable<T> =
  | { state: 'loading' }
  | { state: 'ok'; data: T }
  | { state: 'error'; problem: ApiProblem };

/**
 * Loads with the signed-in API whenever `key` changes (pass the location's query, so a filter
 * change reloads); a stale answer never overwrites a newer one. `reload` loads again.
 */
export function useLoad<T>(
  load: (api: Api) => Promise<T>,
  key: string,
): Loadable<T> & { reload: () => void } {
  const { api } = useApp();
  const [state, setState] = useState<Loadable<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ state: 'loading' });
    load(api).then(
      (data) => live && setState({ state: 'ok', data }),
      (error: unknown) => live && setState({ state: 'error', problem: asProblem(error) }),
    );
    return () => {
      live = false;
    };
  }, [api, key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}
