import { Type } from 'typebox';
import { enumQuery, TakeSkipQuery } from '../../http/query';
import { DateTime, NullableDateTime, TotalEstimatePage, Uuid } from '../../http/schemas';
import { TriageRequest } from '../exposures/schemas';
import { EXPOSURE_STATUSES } from '../exposures/tables';
import { CERTIFICATE_PROVENANCES, QUANTUM_CLASSIFICATIONS } from './tables';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const QUANTUM_SEVERITIES = ['high', 'medium', 'low', 'info'] as const;

export const RepositoryParam = Type.Object({ repositoryId: Uuid });
export const FindingParams = Type.Object({ repositoryId: Uuid, findingId: Uuid });

export const FindingListQuery = Type.Object({
  ...TakeSkipQuery,
  status: enumQuery(EXPOSURE_STATUSES, 'Status (fixed: the latest scan no longer saw it):'),
  severity: enumQuery(QUANTUM_SEVERITIES, 'Severity:'),
  scanId: Type.Optional(Uuid),
});

export const QuantumFinding = Type.Object({
  findingId: Uuid,
  repositoryId: Uuid,
  scanId: Type.String({ description: 'The latest scan that saw it' }),
  firstSeenScanId: Type.String(),
  file: Nullable(Type.String({ description: 'Repository-relative path; null for a dependency' })),
  line: Nullable(Type.Integer({ description: '1-based' })),
  language: Nullable(Type.String()),
  primitive: Type.String({
    description: 'key-generation, key-agreement, signature, encryption, key-material or library',
  }),
  algorithm: Type.String(),
  curve: Nullable(Type.String()),
  keySize: Nullable(Type.Integer()),
  classification: Type.String({ description: QUANTUM_CLASSIFICATIONS.join(', ') }),
  severity: Type.String({ description: QUANTUM_SEVERITIES.join(', ') }),
  status: Type.String(),
  justification: Nullable(Type.String()),
  statusReason: Nullable(Type.String()),
  acceptedUntilUtc: NullableDateTime,
  recommendation: Type.String(),
  snippet: Nullable(Type.String({ description: 'The one source line, trimmed' })),
  api: Nullable(Type.String({ description: 'The API called, or the library' })),
  purl: Nullable(Type.String({ description: 'A cryptography library dependency' })),
  firstSeenAtUtc: DateTime,
  updatedAtUtc: DateTime,
});

export const QuantumFindingPage = TotalEstimatePage(QuantumFinding);

export const FindingTriageRequest = TriageRequest;

export const CertificateListQuery = Type.Object({
  classification: enumQuery(QUANTUM_CLASSIFICATIONS, 'Classification:'),
  provenance: enumQuery(CERTIFICATE_PROVENANCES, 'Provenance:'),
});

export const QuantumCertificate = Type.Object({
  certificateId: Uuid,
  subject: Type.String(),
  issuer: Type.String(),
  serialNumber: Type.String({ description: 'Lower-case hex' }),
  notBefore: DateTime,
  notAfter: DateTime,
  keyAlgorithm: Type.String(),
  keySize: Nullable(Type.Integer()),
  curve: Nullable(Type.String()),
  signatureAlgorithm: Type.String(),
  fingerprintSha256: Type.String({ description: 'SHA-256 of the DER, lower-case hex' }),
  file: Nullable(Type.String()),
  line: Nullable(Type.Integer()),
  endpointId: Nullable(Type.String()),
  provenance: Type.String({ description: CERTIFICATE_PROVENANCES.join(', ') }),
  classification: Type.String({ description: QUANTUM_CLASSIFICATIONS.join(', ') }),
  expired: Type.Boolean(),
  selfSigned: Type.Boolean(),
  isCa: Type.Boolean(),
});

export const QuantumCertificateList = Type.Object({ items: Type.Array(QuantumCertificate) });
