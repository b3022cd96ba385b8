import { describe, expect, it } from 'vitest';
import {
  describeGroup,
  groupByCodepoint,
  groupByName,
  hex16,
  isPostQuantumGroup,
  NAMED_GROUPS,
} from './groups.js';

describe('the group table', () => {
  const codepoints: [string, number, string][] = [
    ['SecP256r1MLKEM768', 0x11eb, 'hybrid'],
    ['X25519MLKEM768', 0x11ec, 'hybrid'],
    ['SecP384r1MLKEM1024', 0x11ed, 'hybrid'],
    ['curveSM2MLKEM768', 0x11ee, 'hybrid'],
    ['MLKEM512', 0x0200, 'pq'],
    ['MLKEM768', 0x0201, 'pq'],
    ['MLKEM1024', 0x0202, 'pq'],
    ['X25519Kyber768Draft00', 0x6399, 'draft'],
    ['SecP256r1Kyber768Draft00', 0x639a, 'draft'],
    ['x25519', 0x001d, 'classical'],
    ['secp256r1', 0x0017, 'classical'],
    ['secp384r1', 0x0018, 'classical'],
    ['secp521r1', 0x0019, 'classical'],
    ['x448', 0x001e, 'classical'],
    ['ffdhe2048', 0x0100, 'classical'],
  ];
  it.each(codepoints)('%s is %i (%s)', (name, codepoint, kind) => {
    expect(groupByCodepoint(codepoint)).toEqual({ name, codepoint, kind });
    expect(groupByName(name)?.codepoint).toBe(codepoint);
  });

  it('has each codepoint and name once', () => {
    expect(new Set(NAMED_GROUPS.map((group) => group.codepoint)).size).toBe(NAMED_GROUPS.length);
    expect(new Set(NAMED_GROUPS.map((group) => group.name.toLowerCase())).size).toBe(
      NAMED_GROUPS.length,
    );
  });

  it("reads OpenSSL's and NIST's spellings, as getEphemeralKeyInfo reports them", () => {
    const names = ['X25519', 'prime256v1', 'P-256', 'secp384r1', 'X448', ' x25519mlkem768 '];
    expect(names.map((name) => groupByName(name)?.codepoint)).toEqual([
      0x001d, 0x0017, 0x0017, 0x0018, 0x001e, 0x11ec,
    ]);
    expect(groupByName('brainpoolP999')).toBeUndefined();
  });

  it('describes an unlisted codepoint as unknown, by its hex value', () => {
    expect(describeGroup(0xfe00)).toEqual({ name: '0xFE00', codepoint: 0xfe00, kind: 'unknown' });
    expect(hex16(0x1d)).toBe('0x001D');
  });

  it('counts hybrid and pure ML-KEM as post-quantum, nothing else', () => {
    const kinds = ['hybrid', 'pq', 'classical', 'draft', 'unknown'] as const;
    expect(kinds.map((kind) => isPostQuantumGroup({ kind }))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(isPostQuantumGroup(null)).toBe(false);
  });
});
