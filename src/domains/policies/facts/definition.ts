/**
 * The facts a policy condition sees, defined once (docs/policies.md#facts): this definition
 * generates the CEL declarations (cel.ts), the TypeScript type of the facts the store computes
 * (facts/store.ts) and the facts table of docs/policies.md (facts/doc.ts; a test compares).
 */

export type CelFieldType =
  | 'string'
  | 'int'
  | 'double'
  | 'bool'
  | 'list<string>'
  | 'map<string, double>'
  | 'list<Vulnerability>'
  | 'list<QuantumFinding>'
  | 'list<QuantumCertificate>';

interface FactField {
  readonly type: CelFieldType;
  readonly description: string;
}

interface FactGroup {
  readonly description: string;
  readonly fields: Readonly<Record<string, FactField>>;
}

/** One vulnerability of the dependency (`vulnerabilities.items`). */
export const VULNERABILITY_FIELDS = {
  id: { type: 'string', description: 'Canonical identifier (CVE, GHSA, ...)' },
  aliases: { type: 'list<string>', description: 'Other identifiers of the same vulnerability' },
  severity: {
    type: 'string',
    description: 'low, medium, high, critical, or "" when the advisory rates none',
  },
  cvss: { type: 'double', description: 'CVSS base score, 0.0 when none is known' },
  fixAvailable: { type: 'bool', description: 'Some version fixes it' },
  fixedVersions: { type: 'list<string>', description: 'The versions that fix it' },
  status: {
    type: 'string',
    description:
      'Exposure status: open, investigating, affected, accepted_risk, not_affected, false_positive',
  },
  kind: {
    type: 'string',
    description:
      'vulnerability, or malicious (an OSV MAL- record: listed here, never counted; see malicious)',
  },
  reachability: {
    type: 'string',
    description:
      'Whether first-party code imports the package (npm, PyPI, Go): imported, used_by_tooling, not_imported or unknown (docs/reachability.md)',
  },
} as const satisfies Record<string, FactField>;

/** One finding of the repository's quantum inventory (`quantum.findings`). */
export const QUANTUM_FINDING_FIELDS = {
  id: { type: 'string', description: 'The findingId (GET .../quantum/findings)' },
  primitive: {
    type: 'string',
    description: 'key-generation, key-agreement, signature, encryption, key-material or library',
  },
  algorithm: {
    type: 'string',
    description: 'RSA, DSA, DH, ECDH, ECDSA, EdDSA, X25519, X448, ML-KEM, ML-DSA, ...',
  },
  curve: { type: 'string', description: 'The curve where known, else ""' },
  keySize: { type: 'int', description: 'The key size in bits where known, else 0' },
  classification: {
    type: 'string',
    description: 'weak, deprecated-2030, disallowed-2035, hybrid or quantum-safe',
  },
  severity: { type: 'string', description: 'high, medium, low or info' },
  status: {
    type: 'string',
    description:
      'Triage status: open, investigating, affected, accepted_risk, not_affected, false_positive (an expired acceptance reads open)',
  },
  file: { type: 'string', description: 'Repository-relative path, "" for a library finding' },
  line: { type: 'int', description: 'Line (1-based), 0 when none' },
  language: { type: 'string', description: 'The source language, "" for a library finding' },
  purl: { type: 'string', description: 'The library dependency\'s purl, "" for source findings' },
} as const satisfies Record<string, FactField>;

/** One certificate of the repository's quantum inventory (`quantum.certificates`). */
export const QUANTUM_CERTIFICATE_FIELDS = {
  id: { type: 'string', description: 'The certificateId (GET .../quantum/certificates)' },
  provenance: {
    type: 'string',
    description:
      'repository-file (found by the latest scan) or tls-observation (last chain seen on a TLS endpoint linked to the repository)',
  },
  subject: { type: 'string', description: 'Subject distinguished name' },
  keyAlgorithm: { type: 'string', description: 'RSA, EC, Ed25519, ML-DSA-65, ...' },
  keySize: { type: 'int', description: 'The key size in bits where known, else 0' },
  curve: { type: 'string', description: 'The curve or parameter set where known, else ""' },
  signatureAlgorithm: { type: 'string', description: 'The signature algorithm' },
  classification: {
    type: 'string',
    description: 'weak, deprecated-2030, disallowed-2035, hybrid or quantum-safe',
  },
  notAfter: {
    type: 'string',
    description:
      'End of validity, ISO 8601 UTC ("2031-01-01T00:00:00.000Z"): strings of this form compare in time order',
  },
  notAfterYear: { type: 'int', description: 'The year of notAfter (UTC)' },
  expired: { type: 'bool', description: 'notAfter is past at evaluation time' },
} as const satisfies Record<string, FactField>;

export const FACT_GROUPS = {
  dependency: {
    description: 'The dependency as the latest scan of the repository found it',
    fields: {
      ecosystem: { type: 'string', description: 'npm, PyPI, Maven, Go, Cargo, RubyGems, ...' },
      name: { type: 'string', description: 'Package name' },
      version: {
        type: 'string',
        description: 'The resolved version, the declared range when not pinned, "" when unpinned',
      },
      purl: { type: 'string', description: 'Package URL with the version' },
      direct: { type: 'bool', description: 'Declared by the repository itself (in any file)' },
      scope: { type: 'string', description: 'runtime, development, optional, ... (first file)' },
      resolution: { type: 'string', description: 'resolved, declared or unpinned' },
      file: { type: 'string', description: 'The first file that declares it' },
      files: { type: 'list<string>', description: 'Every file that declares it' },
    },
  },
  vulnerabilities: {
    description:
      'Vulnerability exposures of this version in this repository, without fixed ones; the counts, ids and maxima leave out not_affected, false_positive and malicious-package findings (see malicious)',
    fields: {
      count: { type: 'int', description: 'Vulnerabilities that count' },
      ids: { type: 'list<string>', description: 'Their identifiers and aliases' },
      maxSeverity: {
        type: 'string',
        description: 'Highest severity: none, low, medium, high or critical',
      },
      maxSeverityLevel: {
        type: 'int',
        description: 'The same as a number: 0 none, 1 low, 2 medium, 3 high, 4 critical',
      },
      maxCvss: { type: 'double', description: 'Highest CVSS base score (0.0 when none)' },
      fixAvailable: { type: 'bool', description: 'At least one of them has a fixed version' },
      statuses: { type: 'list<string>', description: 'Exposure statuses of all items' },
      items: {
        type: 'list<Vulnerability>',
        description:
          'Each finding (fields below), including not_affected, false_positive and malicious ones',
      },
    },
  },
  malicious: {
    description:
      'Malicious-package findings (OSV MAL- records) of this version in this repository, without fixed ones',
    fields: {
      flagged: {
        type: 'bool',
        description:
          'A malicious-package record matches this version and nobody dismissed it (not_affected, false_positive)',
      },
      ids: {
        type: 'list<string>',
        description:
          'Identifiers (MAL-, GHSA, ...) of the records that flag it and are not dismissed',
      },
      statuses: {
        type: 'list<string>',
        description: 'Exposure statuses of all its malicious findings',
      },
    },
  },
  drift: {
    description: "How far the used version is behind the registry's newest (latest drift snapshot)",
    fields: {
      known: { type: 'bool', description: 'Drift was measured (the registry knows the package)' },
      libyear: { type: 'double', description: 'Years between the used and the newest release' },
      majorsBehind: { type: 'int', description: 'Major versions behind the newest stable' },
      minorsBehind: { type: 'int', description: 'Minor versions behind' },
      patchesBehind: { type: 'int', description: 'Patch versions behind' },
      deprecated: { type: 'bool', description: 'The used version or the package is deprecated' },
      yanked: { type: 'bool', description: 'The used version was yanked or unpublished' },
      endOfLife: { type: 'bool', description: 'The used major line is end of life' },
      latestStable: { type: 'string', description: 'Newest stable version, "" when unknown' },
    },
  },
  health: {
    description: 'Package health (latest snapshot, default weights)',
    fields: {
      known: { type: 'bool', description: 'A health score exists' },
      score: { type: 'double', description: 'Score from 0 to 100 (0.0 when unknown)' },
      signals: {
        type: 'map<string, double>',
        description:
          'Sub-score from 0 to 1 of each known signal (maintenanceRecency, releaseCadence, maintainers, deprecation, vulnerabilities, licence, repository, installScripts, popularity); unknown signals are absent',
      },
    },
  },
  risk: {
    description:
      "Supply-chain risk indicators of the package as this repository uses this version (docs/package-intelligence.md#risk-indicators): the same indicators GET /api/v1/packages/{packageId}/risk-indicators shows, with the usage ones (yanked, git-or-url-dependency, floating-range-without-lockfile) judged on this dependency's declarations alone",
    fields: {
      known: {
        type: 'bool',
        description:
          'Registry facts were available; when false only typosquat and the usage indicators are judged (the package was not fetched yet, the registry does not know it, or offline)',
      },
      kinds: {
        type: 'list<string>',
        description:
          'Indicators present: typosquat, install-scripts, new-maintainer, recently-published, unmaintained, single-maintainer, deprecated, yanked, git-or-url-dependency, floating-range-without-lockfile, no-licence, flagged-licence',
      },
      count: { type: 'int', description: 'How many indicators are present' },
      maxSeverity: {
        type: 'string',
        description: 'Highest indicator severity: none, low, medium or high',
      },
      maxSeverityLevel: {
        type: 'int',
        description: 'The same as a number: 0 none, 1 low, 2 medium, 3 high',
      },
    },
  },
  licence: {
    description: 'The declared licence of the used version (else of the package)',
    fields: {
      known: { type: 'bool', description: 'A licence is declared' },
      expression: { type: 'string', description: 'SPDX expression as declared, "" when none' },
    },
  },
  release: {
    description: 'The publication of the used version',
    fields: {
      known: { type: 'bool', description: 'The publication date is known' },
      ageDays: { type: 'int', description: 'Whole days since the used version was published' },
    },
  },
  quantum: {
    description:
      "The repository's quantum inventory (docs/quantum.md): a repository fact, so a condition that reads `quantum` is a repository condition, evaluated once per repository, which may read `repository` besides and no dependency group (one violation per repository, docs/policies.md#repository-conditions); the findings and certificates leave out those the latest scan no longer saw",
    fields: {
      known: {
        type: 'bool',
        description: 'A scan recorded a quantum inventory of the repository',
      },
      findings: {
        type: 'list<QuantumFinding>',
        description: 'Every finding the latest scan saw, whatever its status (fields below)',
      },
      certificates: {
        type: 'list<QuantumCertificate>',
        description: 'Every certificate of the repository, both provenances (fields below)',
      },
      vulnerableCount: {
        type: 'int',
        description:
          'Findings that count (status not not_affected or false_positive) classified weak, deprecated-2030 or disallowed-2035',
      },
      classifications: {
        type: 'list<string>',
        description: 'Classifications of the findings that count',
      },
      algorithms: { type: 'list<string>', description: 'Algorithms of the findings that count' },
      weakCertificates: {
        type: 'int',
        description: 'Certificates classified weak, deprecated-2030 or disallowed-2035',
      },
    },
  },
  repository: {
    description: 'The repository the dependency belongs to',
    fields: {
      name: { type: 'string', description: 'Repository name' },
      criticality: {
        type: 'string',
        description: 'Business criticality: low, medium, high, critical, or "" when unset',
      },
      lifecycle: {
        type: 'string',
        description: 'Lifecycle status: active, maintenance, deprecated, archived',
      },
    },
  },
} as const satisfies Record<string, FactGroup>;

/** Functions a condition may call besides CEL's standard ones. */
export const FACT_FUNCTIONS = [
  {
    signature: 'spdxSatisfies(string, list<string>): bool',
    description:
      'Whether an SPDX expression is satisfied by a list of allowed licences (spdx-satisfies); false for an empty or unparsable expression',
    example: 'spdxSatisfies(licence.expression, ["MIT", "Apache-2.0", "BSD-3-Clause"])',
  },
] as const;

type JsOf<T extends CelFieldType> = T extends 'string'
  ? string
  : T extends 'int' | 'double'
    ? number
    : T extends 'bool'
      ? boolean
      : T extends 'list<string>'
        ? string[]
        : T extends 'map<string, double>'
          ? Record<string, number>
          : T extends 'list<Vulnerability>'
            ? VulnerabilityFact[]
            : T extends 'list<QuantumFinding>'
              ? QuantumFindingFact[]
              : T extends 'list<QuantumCertificate>'
                ? QuantumCertificateFact[]
                : never;

type FieldsOf<F extends Readonly<Record<string, FactField>>> = {
  -readonly [K in keyof F]: JsOf<F[K]['type']>;
};

export type VulnerabilityFact = FieldsOf<typeof VULNERABILITY_FIELDS>;
export type QuantumFindingFact = FieldsOf<typeof QUANTUM_FINDING_FIELDS>;
export type QuantumCertificateFact = FieldsOf<typeof QUANTUM_CERTIFICATE_FIELDS>;

/** The object types lists of facts hold, by CEL name (cel.ts registers them; doc.ts lists them). */
export const FACT_OBJECT_TYPES = {
  Vulnerability: { fields: VULNERABILITY_FIELDS, listedIn: 'vulnerabilities.items' },
  QuantumFinding: { fields: QUANTUM_FINDING_FIELDS, listedIn: 'quantum.findings' },
  QuantumCertificate: { fields: QUANTUM_CERTIFICATE_FIELDS, listedIn: 'quantum.certificates' },
} as const;

/**
 * Groups that describe the repository rather than one dependency: a condition reading
 * `quantum` may read these alone (it is evaluated once per repository, not per dependency).
 */
export const REPOSITORY_GROUPS: readonly FactGroupName[] = ['quantum', 'repository'];

/** The facts of one dependency, as computed and as stored on a violation (numbers, not bigints). */
export type DependencyFacts = {
  -readonly [G in keyof typeof FACT_GROUPS]: FieldsOf<(typeof FACT_GROUPS)[G]['fields']>;
};

export type FactGroupName = keyof typeof FACT_GROUPS;
