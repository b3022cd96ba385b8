/**
 * The alert vocabularies. The API's schemas give these as described strings, not enums
 * (src/domains/alerts/schemas.ts), so they are listed here; the API validates what is sent.
 */
export const ALERT_STATUSES = ['open', 'acknowledged'] as const;
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export const ALERT_KINDS = [
  'exposure_opened',
  'exposure_reopened',
  'malicious_package',
  'advisory_severity_raised',
  'policy_violation_opened',
  'scan_failed',
  'integration_disabled',
  'package_deprecated',
  'package_versions_yanked',
  'health_score',
  'maintainers_changed',
  'package_released',
  'tls_verdict_changed',
  'tls_certificate_expiring',
  'cra_clock_due',
] as const;
