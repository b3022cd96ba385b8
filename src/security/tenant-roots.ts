/**
 * file:// roots per tenant (docs/outbound-guard.md#file-repositories): `{tenantId}` in a root
 * stands for the importing tenant's id. The default root names it, so each tenant imports only
 * from its own folder; a root without it is shared by every tenant. Kept apart from the guard so
 * that the configuration (which checks roots) loads no network code.
 */
export const TENANT_PLACEHOLDER = '{tenantId}';

/**
 * The roots as one tenant sees them: `{tenantId}` replaced; roots naming a tenant are left out
 * without one. Tenant ids are uuids, so the replacement cannot climb out of the root.
 */
export function tenantRoots(roots: readonly string[], tenantId: string | null): string[] {
  const out: string[] = [];
  for (const root of roots) {
    if (!root.includes(TENANT_PLACEHOLDER)) out.push(root);
    else if (tenantId && /^[0-9a-f-]+$/i.test(tenantId)) {
      out.push(root.replaceAll(TENANT_PLACEHOLDER, tenantId));
    }
  }
  return out;
}
