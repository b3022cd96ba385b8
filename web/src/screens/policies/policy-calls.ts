import { type Api, ok } from '../../api/client';
import { type DryRun, type PolicyForm, policyBody } from './policy-form';

/**
 * The editor's dry run. The API dry-runs only a stored policy: for a new one the form is stored
 * as a disabled draft first (created once, then refreshed), so its scope is tried too; a stored
 * policy is tried with the draft condition and its stored scope.
 */
export async function dryRunPolicy(
  api: Api,
  target: { storedId: string | null; draftId: string | null; form: PolicyForm },
): Promise<{ policyId: string; result: DryRun }> {
  const { form } = target;
  const policyId = target.storedId ?? (await storeDraft(api, target.draftId, form));
  const result = await ok(
    api.client.POST('/api/v1/policies/{policyId}/test', {
      params: { path: { policyId } },
      body: { condition: form.condition },
    }),
  );
  return { policyId, result };
}

/** Creates the disabled draft, or brings the existing one up to the form. */
async function storeDraft(api: Api, draftId: string | null, form: PolicyForm): Promise<string> {
  const body = policyBody(form, false);
  if (draftId === null) {
    return (await ok(api.client.POST('/api/v1/policies', { body }))).policyId;
  }
  await ok(
    api.client.PATCH('/api/v1/policies/{policyId}', {
      params: { path: { policyId: draftId } },
      body,
    }),
  );
  return draftId;
}

/**
 * Deletes an unsaved draft when the editor goes away (another screen: the effect's cleanup) or
 * the tab does (`pagehide`, with a keepalive request that outlives the page). `settled` is set
 * once the draft was saved or deleted. Returns the effect's cleanup.
 */
export function discardDraftOnLeave(
  api: Api,
  draftId: string | null,
  settled: { current: boolean },
): (() => void) | undefined {
  if (draftId === null) return undefined;
  const discard = () => {
    if (settled.current) return;
    settled.current = true;
    void api.client
      .DELETE('/api/v1/policies/{policyId}', {
        params: { path: { policyId: draftId } },
        keepalive: true,
      })
      .catch(() => undefined);
  };
  window.addEventListener('pagehide', discard);
  return () => {
    window.removeEventListener('pagehide', discard);
    discard();
  };
}
