import type { Versioning } from '../types';

/**
 * Docker tags, loosely (there is no OSV `Docker` ecosystem and no tag standard). A tag is read
 * as `<numeric release><optional pre-release word>[-<variant>]`: `18`, `3.12.1`, `24-alpine3.23`,
 * `3.13.0rc1-slim`, `v1.2`. The release parts compare numerically (`1.10 > 1.9`).
 *
 * The variant (`alpine3.23`, `slim`, `bookworm`) names a different image line: `18-alpine` and
 * `20-slim` are not newer/older than each other in any useful sense. Compare versions of the
 * same variant only (see `sameVariant`); across variants `compare` is still a total order
 * (release first, then the variant text) so sorting never breaks, but it means nothing.
 *
 * Tags without a numeric release (`latest`, `stable`, `bookworm`) and digests are not valid
 * versions. Docker has no ranges: `satisfies` is exact tag equality and `isRange` is false.
 */

const TAG = /^v?(\d{1,9}(?:\.\d{1,9}){0,5})([a-z]+\d*)?(?:[-_](.+))?$/i;
const PRERELEASE = /^(?:alpha|beta|rc|pre|preview|dev|a|b)\d*$/i;

export interface DockerTag {
  release: number[];
  /** Word glued to the release (`rc1` in `3.13.0rc1`), lowercased; empty when none. */
  suffix: string;
  /** Text after the first `-` (`alpine3.23`), lowercased; empty when none. */
  variant: string;
}

export function parseTag(tag: string): DockerTag | null {
  if (tag.length > 128) return null;
  const m = TAG.exec(tag.trim());
  if (!m) return null;
  return {
    release: m[1]!.split('.').map(Number),
    suffix: (m[2] ?? '').toLowerCase(),
    variant: (m[3] ?? '').toLowerCase(),
  };
}

/** True when both tags parse and name the same image variant, i.e. `compare` is meaningful. */
export function sameVariant(a: string, b: string): boolean {
  const x = parseTag(a);
  const y = parseTag(b);
  return x !== null && y !== null && x.variant === y.variant;
}

function isPre(tag: DockerTag): boolean {
  if (tag.suffix !== '' && PRERELEASE.test(tag.suffix)) return true;
  const first = tag.variant.split(/[-_.]/)[0] ?? '';
  return PRERELEASE.test(first);
}

const textOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function compareDockerTags(a: string, b: string): number {
  const x = parseTag(a);
  const y = parseTag(b);
  // Unparseable tags sort before every versioned tag, by text among themselves.
  if (x === null || y === null) {
    if (x !== null) return 1;
    if (y !== null) return -1;
    return textOrder(a, b);
  }
  const length = Math.max(x.release.length, y.release.length);
  for (let i = 0; i < length; i++) {
    const diff = (x.release[i] ?? 0) - (y.release[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  // `3.13.0rc1` < `3.13.0`: a pre-release word sorts before the bare release.
  const xPre = isPre(x);
  const yPre = isPre(y);
  if (xPre !== yPre) return xPre ? -1 : 1;
  return textOrder(x.suffix, y.suffix) || textOrder(x.variant, y.variant) || textOrder(a, b);
}

export const dockerVersioning: Versioning = {
  isValid: (version) => parseTag(version) !== null,
  compare: compareDockerTags,
  isPrerelease: (version) => {
    const tag = parseTag(version);
    return tag !== null && isPre(tag);
  },
  satisfies: (version, range) => version.trim() !== '' && version.trim() === range.trim(),
  isRange: () => false,
};
