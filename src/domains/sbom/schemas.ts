import { Type } from 'typebox';
import { DateTime, Uuid } from '../../http/schemas';

const NullableText = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const NullableDate = Type.Union([DateTime, Type.Null()]);

export const SBOM_EXPORT_FORMATS = ['cyclonedx-1.6', 'spdx-2.3'] as const;

export const SbomImportBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'The SBOM document itself: CycloneDX JSON 1.4, 1.5 or 1.6 (`bomFormat`, `specVersion`) or SPDX JSON 2.2/2.3 (`spdxVersion`); the format is detected. GitHub dependency-graph responses ({"sbom": {...}}) are accepted as they are. Content-Type application/json, application/vnd.cyclonedx+json or application/spdx+json.',
  },
);

export const SbomImportAccepted = Type.Object({
  importId: Uuid,
  scanId: Uuid,
  repositoryId: Uuid,
  state: Type.String({
    description: 'State of the import scan: queued (follow it at /api/v1/scans/{scanId})',
  }),
  trigger: Type.Literal('sbom'),
  format: Type.String({ description: 'CycloneDX or SPDX' }),
  specVersion: Type.String(),
  tool: NullableText,
  componentCount: Type.Integer({ description: 'Components read from the document' }),
  queuedAtUtc: DateTime,
});

export const CreateSbomExportBody = Type.Object({
  format: Type.String({ description: `One of ${SBOM_EXPORT_FORMATS.join(', ')}` }),
});

export const SbomExport = Type.Object({
  exportId: Uuid,
  repositoryId: Uuid,
  format: Type.String({ description: SBOM_EXPORT_FORMATS.join(' | ') }),
  state: Type.String({ description: 'queued | running | completed | failed' }),
  scanId: Type.Union([Uuid, Type.Null()]),
  componentCount: NullableInteger,
  sizeBytes: NullableInteger,
  sha256: NullableText,
  error: NullableText,
  createdAtUtc: DateTime,
  startedAtUtc: NullableDate,
  finishedAtUtc: NullableDate,
  downloadUrl: NullableText,
});

export const SbomExportList = Type.Object({ items: Type.Array(SbomExport) });
