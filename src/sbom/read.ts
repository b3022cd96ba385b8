import { field, isObject, ReadCollector } from './collect';
import { CYCLONEDX_VERSIONS, readCycloneDx } from './cyclonedx-read';
import { readSpdx, SPDX_VERSIONS } from './spdx-read';
import { DEFAULT_SBOM_LIMITS, type SbomLimits, type SbomReadResult } from './types';

/**
 * Reads an SBOM that was already parsed from JSON: CycloneDX 1.4–1.6 (`bomFormat: "CycloneDX"`)
 * or SPDX 2.2/2.3 (`spdxVersion`). Anything else, or another version, is a 400 (not a document
 * this service reads); a recognised document that breaks its format's structure is a 422 with
 * errors keyed by path (`components[3].name`). Never throws for any input.
 */
export function readSbom(
  document: unknown,
  limits: SbomLimits = DEFAULT_SBOM_LIMITS,
): SbomReadResult {
  if (!isObject(document)) {
    return {
      ok: false,
      status: 400,
      detail: 'The body must be a CycloneDX or SPDX JSON document (a JSON object).',
      errors: { $: ['must be a JSON object'] },
    };
  }
  // GitHub's dependency-graph API answers {"sbom": {...SPDX...}}: accept its response as it is.
  const wrapped = field(document, 'sbom');
  if (
    isObject(wrapped) &&
    !isObject(field(wrapped, 'sbom')) &&
    field(document, 'bomFormat') === undefined &&
    field(document, 'spdxVersion') === undefined
  ) {
    return readSbom(wrapped, limits);
  }
  const collector = new ReadCollector();
  const bomFormat = field(document, 'bomFormat');
  const spdxVersion = field(document, 'spdxVersion');
  let graph: ReturnType<typeof readCycloneDx>;
  if (bomFormat !== undefined) {
    const specVersion = field(document, 'specVersion');
    if (bomFormat !== 'CycloneDX') {
      return unsupported('bomFormat', 'must be "CycloneDX"');
    }
    if (
      typeof specVersion !== 'string' ||
      !(CYCLONEDX_VERSIONS as readonly string[]).includes(specVersion)
    ) {
      return unsupported(
        'specVersion',
        `CycloneDX ${CYCLONEDX_VERSIONS.join(', ')} are supported (JSON only)`,
      );
    }
    graph = readCycloneDx(document, specVersion, limits, collector);
  } else if (spdxVersion !== undefined) {
    if (
      typeof spdxVersion !== 'string' ||
      !(SPDX_VERSIONS as readonly string[]).includes(spdxVersion)
    ) {
      return unsupported('spdxVersion', `${SPDX_VERSIONS.join(', ')} are supported (JSON only)`);
    }
    graph = readSpdx(document, spdxVersion.slice('SPDX-'.length), limits, collector);
  } else {
    return {
      ok: false,
      status: 400,
      detail: 'The body is neither a CycloneDX nor an SPDX JSON document.',
      errors: {
        bomFormat: ['is required for CycloneDX ("CycloneDX")'],
        spdxVersion: ['is required for SPDX ("SPDX-2.3")'],
      },
    };
  }
  if (collector.failed) {
    return {
      ok: false,
      status: 422,
      detail: `The ${graph.format === 'cyclonedx' ? 'CycloneDX' : 'SPDX'} document is malformed.`,
      errors: collector.result(),
    };
  }
  return { ok: true, graph, warnings: collector.warnings };
}

function unsupported(key: string, message: string): SbomReadResult {
  return {
    ok: false,
    status: 400,
    detail: 'This SBOM format or version is not supported.',
    errors: { [key]: [message] },
  };
}
