import { useState } from 'preact/hooks';
import { type ApiProblem, asProblem } from './api/problem';

/**
 * One user action (a save, a revoke): busy while it runs, its problem when the API refuses, so
 * the screen shows the API's own answer in an <ErrorPanel/>. `run` resolves to the result, or
 * null when it failed.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const run = async <T>(action: () => Promise<T>): Promise<T | null> => {
    setBusy(true);
    setProblem(null);
    try {
      return await action();
    } catch (error) {
      setProblem(asProblem(error));
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, run, clear: () => setProblem(null) };
}
