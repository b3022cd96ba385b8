import { FieldErrorCollector } from '../../core/problem';
import { findEcosystem } from '../../ecosystems/ecosystem-list';
import { buildPurl } from '../../ecosystems/purl';
import type { EcosystemModule, Resolution } from '../../ecosystems/types';
import { looksLikeRange, mapPurl } from '../../sbom/purl-map';

/** One asked-about package, normalised the way extractors store dependencies. */
export interface AskedPackage {
  index: number;
  ecosystem: EcosystemModule;
  name: string;
  version: string | null;
  resolution: Resolution;
  /** With the version when it is exact. */
  purl: string;
}

export interface PackageInput {
  purl?: string;
  ecosystem?: string;
  name?: string;
  version?: string | null;
}

function resolutionOf(version: string | null): Resolution {
  if (version === null) return 'unpinned';
  return looksLikeRange(version) ? 'declared' : 'resolved';
}

function fromPurl(input: PackageInput & { purl: string }, index: number): AskedPackage | string {
  const mapped = mapPurl(input.purl, null);
  if (!mapped.ok) {
    return mapped.reason === 'unsupported'
      ? `purl type ${mapped.type} is not a supported ecosystem`
      : `not a valid purl: ${mapped.message}`;
  }
  const { ecosystem, name } = mapped.value;
  const given = input.version === undefined ? mapped.value.version : input.version?.trim() || null;
  const resolution = resolutionOf(given);
  return {
    index,
    ecosystem,
    name,
    version: given,
    resolution,
    purl: buildPurl(ecosystem.purlType, name, resolution === 'resolved' ? given : null),
  };
}

function fromParts(input: PackageInput, index: number): AskedPackage | [string, string] {
  const ecosystem = findEcosystem(input.ecosystem ?? '');
  if (!ecosystem) return ['ecosystem', `unknown ecosystem ${input.ecosystem}`];
  let name: string;
  try {
    name = ecosystem.normaliseName((input.name ?? '').trim());
  } catch {
    return ['name', 'cannot be normalised'];
  }
  if (name === '') return ['name', 'must not be empty'];
  const version = input.version?.trim() || null;
  const resolution = resolutionOf(version);
  let purl: string;
  try {
    purl = buildPurl(ecosystem.purlType, name, resolution === 'resolved' ? version : null);
  } catch {
    return ['name', 'cannot be written as a purl'];
  }
  return { index, ecosystem, name, version, resolution, purl };
}

/**
 * Reads the batch: each entry a purl, or an ecosystem and a name (a version optional). Every
 * entry that cannot be read is a field error (`packages[3].purl`); any makes the batch a 400.
 */
export function readPackages(inputs: readonly PackageInput[]): AskedPackage[] {
  const errors = new FieldErrorCollector();
  const out: AskedPackage[] = [];
  inputs.forEach((input, index) => {
    const at = `packages[${index}]`;
    if (input.purl !== undefined) {
      if (input.ecosystem !== undefined || input.name !== undefined) {
        errors.add(at, 'give a purl or an ecosystem and a name, not both');
        return;
      }
      const asked = fromPurl({ ...input, purl: input.purl }, index);
      if (typeof asked === 'string') errors.add(`${at}.purl`, asked);
      else out.push(asked);
      return;
    }
    if (input.ecosystem === undefined || input.name === undefined) {
      errors.add(at, 'needs a purl, or an ecosystem and a name');
      return;
    }
    const asked = fromParts(input, index);
    if (Array.isArray(asked)) errors.add(`${at}.${asked[0]}`, asked[1]);
    else out.push(asked);
  });
  errors.throwIfAny(400, 'Some packages cannot be read.');
  return out;
}
