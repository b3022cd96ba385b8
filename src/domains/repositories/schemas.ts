import { Type } from 'typebox';
import { iso } from '../../core/iso-time';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { DateTime, NullableDateTime, Uuid } from '../../http/schemas';
import type { RepositoryDependencyRow, RepositoryRow } from './store';

const NullableText = Type.Union([Type.String(), Type.Null()]);
const NullableUuid = Type.Union([Uuid, Type.Null()]);

export const ImportRepositoriesRequest = Type.Object({
  connectionId: Type.Optional(
    Type.Union([Uuid, Type.Null()], {
      description:
        "Import the provider's repository ids of this connection (items name externalId)",
    }),
  ),
  repositories: Type.Array(
    Type.Object({
      externalId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: "The provider's repository id (with connectionId)",
        }),
      ),
      url: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 2048,
          description:
            'Clone URL without connectionId: https, ssh (ssh:// or user@host:path), or file:// where allowed',
        }),
      ),
      name: Type.Optional(
        Type.String({
          maxLength: 200,
          description: 'Display name (default: from the provider or URL)',
        }),
      ),
      defaultBranch: Type.Optional(
        Type.String({
          maxLength: 255,
          description: "Branch to scan (default: the repository's own default branch)",
        }),
      ),
      deployKey: Type.Optional(
        Type.String({
          description: 'OpenSSH/PEM private key for an ssh URL; sealed at rest, never returned',
        }),
      ),
    }),
    { minItems: 1, maxItems: 100 },
  ),
});

export const ImportRepositoriesResult = Type.Object({
  items: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'position in the request' }),
      status: Type.String({
        description: 'imported, alreadyImported, notFound, invalid or limitReached',
      }),
      repositoryId: NullableUuid,
      externalId: NullableText,
      url: NullableText,
      name: NullableText,
      message: NullableText,
    }),
  ),
  imported: Type.Integer(),
  alreadyImported: Type.Integer(),
  failed: Type.Integer({ description: 'notFound + invalid + limitReached' }),
});

export const Repository = Type.Object({
  repositoryId: Uuid,
  connectionId: NullableUuid,
  provider: Type.String({ description: 'scm-a, scm-b, scm-c, scm-d or git (clone URL)' }),
  externalId: NullableText,
  name: Type.String(),
  fullName: Type.String(),
  cloneUrl: Type.String(),
  webUrl: NullableText,
  defaultBranch: Type.String(),
  workspaceId: NullableUuid,
  teamId: NullableUuid,
  businessCriticality: Type.Union([Type.String(), Type.Null()], {
    description: 'low, medium, high or critical',
  }),
  lifecycleStatus: Type.String({ description: 'active, maintenance, deprecated or archived' }),
  hasDeployKey: Type.Boolean(),
  lastScanId: NullableUuid,
  lastScannedAtUtc: NullableDateTime,
  createdAtUtc: DateTime,
  updatedAtUtc: DateTime,
});

export const RepositoryDetail = Type.Object({
  ...Repository.properties,
  dependencyCount: Type.Integer(),
  activeScan: Type.Union([
    Type.Object({ scanId: Uuid, state: Type.String(), queuedAtUtc: DateTime }),
    Type.Null(),
  ]),
});

export const UpdateRepositoryRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    defaultBranch: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    workspaceId: Type.Optional(NullableUuid),
    teamId: Type.Optional(NullableUuid),
    businessCriticality: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'low, medium, high or critical (case-insensitive), null to clear',
      }),
    ),
    lifecycleStatus: Type.Optional(
      Type.String({
        description: 'active, maintenance, deprecated or archived (case-insensitive)',
      }),
    ),
  },
  { description: 'Fields present are set; other fields are refused (422)' },
);

export const RepositoryDependency = Type.Object({
  dependencyId: Uuid,
  packageId: Uuid,
  ecosystem: Type.String({ description: ECOSYSTEMS.join(', ') }),
  name: Type.String(),
  version: NullableText,
  resolution: Type.String({ description: 'resolved, declared or unpinned' }),
  purl: Type.String(),
  scope: Type.String(),
  direct: Type.Boolean(),
  file: Type.String(),
  line: Type.Union([Type.Integer(), Type.Null()]),
  source: Type.Record(Type.String(), Type.Unknown()),
  parents: Type.Array(Type.String()),
  scanId: Uuid,
});

export const DependencyGraph = Type.Object({
  repositoryId: Uuid,
  scanId: NullableUuid,
  maxEdges: Type.Integer({ description: 'the cap applied' }),
  totalEdges: Type.Integer({ description: 'edges of the whole graph' }),
  truncated: Type.Boolean(),
  nodes: Type.Array(
    Type.Object({
      nodeId: Type.String({ description: 'a dependency id, or file:<path> for a dependency file' }),
      kind: Type.String({ description: 'file or package' }),
      ecosystem: Type.String(),
      name: Type.String(),
      version: NullableText,
      purl: NullableText,
      packageId: NullableUuid,
      direct: Type.Boolean(),
      scope: NullableText,
      file: Type.String(),
    }),
  ),
  edges: Type.Array(Type.Object({ from: Type.String(), to: Type.String() })),
});

const Count = Type.Integer();
export const RiskSummary = Type.Object({
  repositoryId: Uuid,
  lastScanId: NullableUuid,
  lastScannedAtUtc: NullableDateTime,
  dependencies: Type.Object({
    total: Count,
    direct: Count,
    transitive: Count,
    packages: Count,
    byResolution: Type.Object({ resolved: Count, declared: Count, unpinned: Count }),
    byEcosystem: Type.Record(Type.String(), Count),
  }),
  vulnerabilities: Type.Object({
    available: Type.Boolean({ description: 'false until vulnerability matching exists' }),
    open: Count,
    bySeverity: Type.Object({
      critical: Count,
      high: Count,
      medium: Count,
      low: Count,
      unknown: Count,
    }),
  }),
  drift: Type.Object({
    available: Type.Boolean(),
    scanId: NullableUuid,
    measured: Count,
    pending: Count,
    outdated: Count,
    majorBehind: Count,
    minorBehind: Count,
    patchBehind: Count,
    deprecated: Count,
    yanked: Count,
    endOfLife: Count,
    libyears: Type.Number(),
  }),
  health: Type.Object({
    available: Type.Boolean(),
    scored: Count,
    averageScore: Type.Union([Type.Number(), Type.Null()]),
    below50: Count,
  }),
  policy: Type.Object({
    available: Type.Boolean(),
    status: Type.String({ description: 'notEvaluated, noPolicies, passing or failing' }),
    openViolations: Count,
  }),
});

export function presentRepository(row: RepositoryRow) {
  return {
    repositoryId: row.id,
    connectionId: row.connection_id,
    provider: row.provider,
    externalId: row.external_id,
    name: row.name,
    fullName: row.full_name,
    cloneUrl: row.clone_url,
    webUrl: row.web_url,
    defaultBranch: row.default_branch,
    workspaceId: row.workspace_id,
    teamId: row.team_id,
    businessCriticality: row.business_criticality,
    lifecycleStatus: row.lifecycle_status,
    hasDeployKey: row.deploy_key_sealed !== null,
    lastScanId: row.last_scan_id,
    lastScannedAtUtc: iso(row.last_scanned_at),
    createdAtUtc: row.created_at.toISOString(),
    updatedAtUtc: row.updated_at.toISOString(),
  };
}

export function presentDependency(row: RepositoryDependencyRow) {
  return {
    dependencyId: row.id,
    packageId: row.package_id,
    ecosystem: row.ecosystem,
    name: row.name,
    version: row.version,
    resolution: row.resolution,
    purl: row.purl,
    scope: row.scope,
    direct: row.direct,
    file: row.file,
    line: row.line,
    source: row.source as unknown as Record<string, unknown>,
    parents: row.parents,
    scanId: row.scan_id,
  };
}
