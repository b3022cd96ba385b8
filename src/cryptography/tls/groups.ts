/**
 * The TLS supported-groups registry, as far as a quantum inventory needs it: the key-exchange
 * groups a server may select, each with its IANA codepoint and kind. Hybrid groups pair a
 * classical ECDH share with ML-KEM (draft-ietf-tls-ecdhe-mlkem) and exist in TLS 1.3 only; the
 * pure ML-KEM groups are draft-ietf-tls-mlkem; the Kyber draft codepoints are obsolete
 * pre-standard hybrids that nothing should negotiate any more.
 */

export type GroupKind = 'classical' | 'hybrid' | 'pq' | 'draft' | 'unknown';

export interface NamedGroup {
  /** The IANA name (`x25519`, `secp256r1`, `X25519MLKEM768`), or `0x...` when unlisted. */
  name: string;
  codepoint: number;
  kind: GroupKind;
}

export const NAMED_GROUPS: readonly NamedGroup[] = [
  { name: 'SecP256r1MLKEM768', codepoint: 0x11eb, kind: 'hybrid' },
  { name: 'X25519MLKEM768', codepoint: 0x11ec, kind: 'hybrid' },
  { name: 'SecP384r1MLKEM1024', codepoint: 0x11ed, kind: 'hybrid' },
  { name: 'curveSM2MLKEM768', codepoint: 0x11ee, kind: 'hybrid' },
  { name: 'MLKEM512', codepoint: 0x0200, kind: 'pq' },
  { name: 'MLKEM768', codepoint: 0x0201, kind: 'pq' },
  { name: 'MLKEM1024', codepoint: 0x0202, kind: 'pq' },
  { name: 'X25519Kyber768Draft00', codepoint: 0x6399, kind: 'draft' },
  { name: 'SecP256r1Kyber768Draft00', codepoint: 0x639a, kind: 'draft' },
  { name: 'secp192r1', codepoint: 0x0013, kind: 'classical' },
  { name: 'secp224r1', codepoint: 0x0015, kind: 'classical' },
  { name: 'secp256k1', codepoint: 0x0016, kind: 'classical' },
  { name: 'secp256r1', codepoint: 0x0017, kind: 'classical' },
  { name: 'secp384r1', codepoint: 0x0018, kind: 'classical' },
  { name: 'secp521r1', codepoint: 0x0019, kind: 'classical' },
  { name: 'brainpoolP256r1', codepoint: 0x001a, kind: 'classical' },
  { name: 'brainpoolP384r1', codepoint: 0x001b, kind: 'classical' },
  { name: 'brainpoolP512r1', codepoint: 0x001c, kind: 'classical' },
  { name: 'x25519', codepoint: 0x001d, kind: 'classical' },
  { name: 'x448', codepoint: 0x001e, kind: 'classical' },
  { name: 'brainpoolP256r1tls13', codepoint: 0x001f, kind: 'classical' },
  { name: 'brainpoolP384r1tls13', codepoint: 0x0020, kind: 'classical' },
  { name: 'brainpoolP512r1tls13', codepoint: 0x0021, kind: 'classical' },
  { name: 'curveSM2', codepoint: 0x0029, kind: 'classical' },
  { name: 'ffdhe2048', codepoint: 0x0100, kind: 'classical' },
  { name: 'ffdhe3072', codepoint: 0x0101, kind: 'classical' },
  { name: 'ffdhe4096', codepoint: 0x0102, kind: 'classical' },
  { name: 'ffdhe6144', codepoint: 0x0103, kind: 'classical' },
  { name: 'ffdhe8192', codepoint: 0x0104, kind: 'classical' },
];

/** Well-known codepoints by name, for the code that builds a ClientHello. */
export const GROUP = {
  SecP256r1MLKEM768: 0x11eb,
  X25519MLKEM768: 0x11ec,
  SecP384r1MLKEM1024: 0x11ed,
  curveSM2MLKEM768: 0x11ee,
  MLKEM512: 0x0200,
  MLKEM768: 0x0201,
  MLKEM1024: 0x0202,
  x25519: 0x001d,
  x448: 0x001e,
  secp256r1: 0x0017,
  secp384r1: 0x0018,
  secp521r1: 0x0019,
  ffdhe2048: 0x0100,
  ffdhe3072: 0x0101,
} as const;

const BY_CODEPOINT = new Map(NAMED_GROUPS.map((group) => [group.codepoint, group]));

/**
 * Other spellings of the same groups: OpenSSL's short names (what Node's
 * `getEphemeralKeyInfo()` reports, `prime256v1`, `X25519`) and the NIST curve names.
 */
const ALIASES: Record<string, string> = {
  prime192v1: 'secp192r1',
  'p-192': 'secp192r1',
  'p-224': 'secp224r1',
  prime256v1: 'secp256r1',
  'p-256': 'secp256r1',
  'p-384': 'secp384r1',
  'p-521': 'secp521r1',
  x25519kyber768: 'X25519Kyber768Draft00',
  'mlkem-768': 'MLKEM768',
};

const BY_NAME = new Map<string, NamedGroup>();
for (const group of NAMED_GROUPS) BY_NAME.set(group.name.toLowerCase(), group);
for (const [alias, name] of Object.entries(ALIASES)) {
  const group = BY_NAME.get(name.toLowerCase());
  if (group) BY_NAME.set(alias, group);
}

export function groupByCodepoint(codepoint: number): NamedGroup | undefined {
  return BY_CODEPOINT.get(codepoint);
}

/** A group by its IANA name or an OpenSSL/NIST alias, ignoring case. */
export function groupByName(name: string): NamedGroup | undefined {
  return BY_NAME.get(name.trim().toLowerCase());
}

/** Always a description: an unlisted codepoint is kind `unknown`, named by its hex value. */
export function describeGroup(codepoint: number): NamedGroup {
  return groupByCodepoint(codepoint) ?? { name: hex16(codepoint), codepoint, kind: 'unknown' };
}

/** `0x11EC`: how codepoints are written in the registries. */
export function hex16(value: number): string {
  return `0x${value.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether a group gives post-quantum key exchange (hybrid or pure ML-KEM). */
export function isPostQuantumGroup(group: Pick<NamedGroup, 'kind'> | null | undefined): boolean {
  return group?.kind === 'hybrid' || group?.kind === 'pq';
}
