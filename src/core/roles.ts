/** Roles (docs/design.md#http-rules), each including the ones before it. */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** The strongest role among `roles` (tokens always hold at least one). */
export function highestRole(roles: readonly Role[]): Role {
  let best: Role = 'viewer';
  for (const role of roles) if (roleRank(role) > roleRank(best)) best = role;
  return best;
}

export function holdsRole(roles: readonly Role[], required: Role): boolean {
  return roles.some((role) => roleRank(role) >= roleRank(required));
}
