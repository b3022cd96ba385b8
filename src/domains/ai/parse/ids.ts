/**
 * Vulnerability identifiers of every kind the advisory store holds (OSV ids and aliases): CVE,
 * GHSA, PYSEC, RUSTSEC, GO, MAL, OSV, GSD, the distributions' (DSA, DLA, USN, RHSA, ALSA, ...)
 * and the other OSV databases. Found anywhere in a question, written in any case, and returned in
 * the spelling the store uses: upper-case prefix, GHSA's groups lower-case.
 */

const PREFIXES = [
  'CVE',
  'PYSEC',
  'RUSTSEC',
  'GO',
  'MAL',
  'OSV',
  'GSD',
  'DSA',
  'DLA',
  'DTSA',
  'USN',
  'RHSA',
  'RHBA',
  'RHEA',
  'ALSA',
  'ALBA',
  'ALEA',
  'ELSA',
  'BIT',
  'CURL',
  'UVI',
  'HSEC',
  'PSF',
  'RSEC',
  'CGA',
  'MGASA',
  'SUSE-SU',
  'SUSE-RU',
  'OPENSUSE-SU',
  'LBSEC',
  'ECHO',
  'MINI',
  'RXSA',
  'DEBIAN-CVE',
  'UBUNTU-CVE',
  'ALPINE-CVE',
];

// Prefix, a year (or the distributions' numbering) and the rest; GHSA has its own shape.
const GENERIC = new RegExp(
  `(?<![\\w-])(${PREFIXES.map((p) => p.replace('-', '\\-')).join('|')})-(\\d{2,4}(?:[-:][0-9a-z.]+)+)(?![\\w-])`,
  'gi',
);
const GHSA = /(?<![\w-])ghsa(-[0-9a-z]{4}){3}(?![\w-])/gi;

function canonical(prefix: string, rest: string): string {
  return `${prefix.toUpperCase()}-${rest.toUpperCase()}`;
}

/** The identifiers in `text`, in the order they appear, without repeats. */
export function vulnerabilityIdsIn(text: string): string[] {
  const found: Array<{ at: number; id: string }> = [];
  for (const match of text.matchAll(GHSA)) {
    found.push({ at: match.index, id: `GHSA${match[0].slice(4).toLowerCase()}` });
  }
  for (const match of text.matchAll(GENERIC)) {
    found.push({ at: match.index, id: canonical(match[1] ?? '', match[2] ?? '') });
  }
  found.sort((a, b) => a.at - b.at);
  return [...new Set(found.map((f) => f.id))];
}

/** The text with the identifiers taken out (so that "GO-2024-1" is not read as an ecosystem). */
export function withoutVulnerabilityIds(text: string): string {
  return text.replace(GHSA, ' ').replace(GENERIC, ' ');
}
