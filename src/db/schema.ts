import type { AlertTables } from '../domains/alerts/tables';
import type { AnalyticsTables } from '../domains/analytics/tables';
import type { AnalyticsExportTables } from '../domains/analytics-export/tables';
import type { ApiTokenTables } from '../domains/api-tokens/tables';
import type { AuditLogTables } from '../domains/audit-log/tables';
import type { BillingTables } from '../domains/billing/tables';
import type { ComplianceTables } from '../domains/compliance/tables';
import type { CraTables } from '../domains/cra/tables';
import type { CraReportingTables } from '../domains/cra-reporting/tables';
import type { DriftTables } from '../domains/drift/tables';
import type { ExposureTables } from '../domains/exposures/tables';
import type { IntegrationTables } from '../domains/integrations/tables';
import type { OnboardingTables } from '../domains/onboarding/tables';
import type { OutboundDeliveryTables } from '../domains/outbound-deliveries/tables';
import type { PackageTables } from '../domains/packages/tables';
import type { PolicyTables } from '../domains/policies/tables';
import type { QuantumTables } from '../domains/quantum/tables';
import type { QuantumTlsTables } from '../domains/quantum/tls/tables';
import type { RepositoryTables } from '../domains/repositories/tables';
import type { SbomTables } from '../domains/sbom/tables';
import type { ScanTables } from '../domains/scans/tables';
import type { SourceControlTables } from '../domains/source-control/tables';
import type { StatusTables } from '../domains/status/tables';
import type { TenantSettingsTables } from '../domains/tenant-settings/tables';
import type { TenantTables } from '../domains/tenants/tables';
import type { TriageRuleTables } from '../domains/triage-rules/tables';
import type { AdvisoryStoreTables } from '../intel/advisory-store/tables';
import type { KevTables } from '../intel/kev/tables';
import type { PackageCatalogueTables } from '../intel/package-catalogue/tables';
import type { JobTables } from '../jobs/tables';

/** The typed database: each domain declares its own tables in `tables.ts`. */
export interface DB
  extends TenantTables,
    ApiTokenTables,
    AuditLogTables,
    SourceControlTables,
    RepositoryTables,
    ScanTables,
    SbomTables,
    PackageTables,
    DriftTables,
    TenantSettingsTables,
    JobTables,
    AdvisoryStoreTables,
    KevTables,
    PackageCatalogueTables,
    ExposureTables,
    PolicyTables,
    IntegrationTables,
    OutboundDeliveryTables,
    AlertTables,
    OnboardingTables,
    AnalyticsTables,
    AnalyticsExportTables,
    StatusTables,
    CraTables,
    CraReportingTables,
    QuantumTables,
    QuantumTlsTables,
    TriageRuleTables,
    BillingTables,
    ComplianceTables {}
