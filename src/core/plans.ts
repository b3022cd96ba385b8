/**
 * Plans carry feature flags and limits (docs/design.md#http-rules). Demo tenants are on `trial`.
 * Rate-limit ceilings are per minute and never exceed the configured defaults.
 */
export const PLANS = ['trial', 'free', 'team', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const FEATURES = {
  api_tokens: 'Create and revoke API tokens',
  audit_log_export: 'Export the audit log as NDJSON',
  sbom_export: 'Export repositories as CycloneDX and SPDX SBOMs',
  policies: 'Policies and policy violations',
  alert_rules: 'Alert rules',
  integrations: 'Outbound webhook integrations',
  cra: 'EU Cyber Resilience Act products, findings and reports',
  quantum: 'Post-quantum readiness findings',
  compliance_evidence: 'Compliance control evidence',
  benchmarks: 'Peer benchmarks',
  warehouse_export: 'Warehouse export of analytics facts to PostgreSQL or HTTPS destinations',
} as const;
export type Feature = keyof typeof FEATURES;

export interface PlanDefinition {
  features: readonly Feature[];
  /** Rate ceilings per minute; null means the configured default applies unchanged. */
  limits: {
    repositories: number;
    tenantRequestsPerMinute: number | null;
    tokenRequestsPerMinute: number | null;
  };
}

const ALL_FEATURES = Object.keys(FEATURES) as Feature[];

export const PLAN_DEFINITIONS: Record<Plan, PlanDefinition> = {
  trial: {
    features: ['api_tokens', 'sbom_export', 'policies', 'alert_rules'],
    limits: { repositories: 10, tenantRequestsPerMinute: 600, tokenRequestsPerMinute: 300 },
  },
  free: {
    // Policies start with the team plan (trial shows them): free tenants get 403 on them.
    features: ['api_tokens'],
    limits: { repositories: 5, tenantRequestsPerMinute: 600, tokenRequestsPerMinute: 300 },
  },
  team: {
    features: [
      'api_tokens',
      'audit_log_export',
      'sbom_export',
      'policies',
      'alert_rules',
      'integrations',
    ],
    limits: { repositories: 200, tenantRequestsPerMinute: null, tokenRequestsPerMinute: null },
  },
  business: {
    features: ALL_FEATURES.filter((feature) => feature !== 'compliance_evidence'),
    limits: { repositories: 2000, tenantRequestsPerMinute: null, tokenRequestsPerMinute: null },
  },
  enterprise: {
    features: ALL_FEATURES,
    limits: { repositories: 100_000, tenantRequestsPerMinute: null, tokenRequestsPerMinute: null },
  },
};

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

export function planHas(plan: Plan, feature: Feature): boolean {
  return PLAN_DEFINITIONS[plan].features.includes(feature);
}
