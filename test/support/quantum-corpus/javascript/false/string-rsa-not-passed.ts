const ALG = 'RSA';
const CURVE = 'secp256k1';

type KeyKind = typeof ALG | 'EC';

export function label(kind: KeyKind, bits: number): string {
  switch (kind) {
    case ALG:
      return `RSA-${bits}`;
    default:
      return `EC (${CURVE})`;
  }
}

export const SUPPORTED = [ALG, 'EC', 'Ed25519'];
