import type { Ecosystem } from '../ecosystems/names';

/**
 * The start-up check of the registries (docs/registries.md#the-start-banner): one GET of each
 * enabled registry's base URL, all at once, each bounded by `timeoutMs`. Any HTTP answer, even
 * 404 or 401, means the registry can be reached; no answer (refused, unknown host, timeout) is
 * what the banner and the log must say, or its packages look merely "pending" forever. The
 * addresses are the operator's own settings, not user input: no outbound guard applies.
 */
export const REACHABILITY_TIMEOUT_MS = 3000;

/** Registries that gave no answer, each with the reason. */
export type UnreachableRegistries = Partial<Record<Ecosystem, string>>;

function reason(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'no answer in time';
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

export async function checkRegistries(
  baseUrls: Record<Ecosystem, string | null>,
  timeoutMs = REACHABILITY_TIMEOUT_MS,
): Promise<UnreachableRegistries> {
  const unreachable: UnreachableRegistries = {};
  const checks = (Object.entries(baseUrls) as [Ecosystem, string | null][]).map(
    async ([ecosystem, url]) => {
      if (!url) return;
      try {
        const response = await fetch(url, {
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'manual',
          headers: { 'user-agent': 'driftwatch-registry-client' },
        });
        await response.body?.cancel().catch(() => {});
      } catch (error) {
        unreachable[ecosystem] = reason(error);
      }
    },
  );
  await Promise.all(checks);
  return unreachable;
}
