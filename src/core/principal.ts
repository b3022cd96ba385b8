import type { Plan } from './plans';
import type { Role } from './roles';

/** Who is calling: resolved from the bearer token on every authenticated request. */
export interface Principal {
  tokenId: string;
  tenantId: string;
  roles: Role[];
  plan: Plan;
}
