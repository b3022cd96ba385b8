/**
 * The quantum verdict of a TLS endpoint from plain facts: which key-exchange groups it was seen
 * to use and whether its certificate chain authenticates with post-quantum signatures.
 *
 * - vulnerable: the best key exchange seen is classical (ECDHE, X25519, FFDHE, RSA key
 *   transport), which includes every TLS <= 1.2 connection.
 * - hybrid: a hybrid group (X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024, ...).
 * - pq-kex: a pure ML-KEM group.
 * - quantum-safe: hybrid or pure post-quantum key exchange AND a post-quantum (ML-DSA or
 *   composite) certificate chain. Rare, so "post-quantum key exchange, classical authentication"
 *   is said separately by `hybridKexClassicalAuth`.
 *
 * "Seen to use" counts the raw probe too: a server that picks a hybrid group when offered one is
 * `hybrid`, even though Node 20 (OpenSSL 3.0) negotiated a classical group with it, because the
 * verdict describes the server, and every current browser and OpenSSL >= 3.5 client gets the
 * hybrid exchange from it.
 */

import { type GroupKind, isPostQuantumGroup } from './groups.js';

export type TlsVerdict = 'vulnerable' | 'hybrid' | 'pq-kex' | 'quantum-safe';

/** What the caller concluded from the certificate chain (this folder never parses it). */
export type ChainAuthentication = 'post-quantum' | 'classical' | 'unknown';

export interface VerdictInputs {
  /** The protocol Node negotiated (`TLSv1.3`), null when its handshake failed. */
  protocol: string | null;
  /** The kind of the group Node negotiated; null for RSA key transport or when unknown. */
  negotiatedGroupKind: GroupKind | null;
  /** Whether Node learnt anything about the key exchange (RSA key transport counts). */
  negotiatedKeyExchangeKnown: boolean;
  /** The kind of the group the raw probe saw the server select; null when it saw none. */
  probedGroupKind: GroupKind | null;
  /** Whether the raw probe got a ServerHello or HelloRetryRequest at all. */
  probeAnswered: boolean;
  authentication: ChainAuthentication;
}

export interface VerdictResult {
  /** Null when neither connection learnt anything about the key exchange. */
  verdict: TlsVerdict | null;
  /** Post-quantum (hybrid or pure) key exchange with a chain not known to be post-quantum. */
  hybridKexClassicalAuth: boolean;
  /** One sentence saying why, for the observation's record. */
  reason: string;
}

export function tlsVerdict(inputs: VerdictInputs): VerdictResult {
  const pqKind = postQuantumKind(inputs);
  if (pqKind) {
    const pqAuth = inputs.authentication === 'post-quantum';
    const exchange = pqKind === 'hybrid' ? 'hybrid' : 'pure ML-KEM';
    if (pqAuth) {
      return {
        verdict: 'quantum-safe',
        hybridKexClassicalAuth: false,
        reason: `${exchange} key exchange and a post-quantum certificate chain`,
      };
    }
    return {
      verdict: pqKind === 'hybrid' ? 'hybrid' : 'pq-kex',
      hybridKexClassicalAuth: true,
      reason: `${exchange} key exchange, ${inputs.authentication} authentication`,
    };
  }
  if (inputs.protocol !== null || inputs.probeAnswered) {
    return {
      verdict: 'vulnerable',
      hybridKexClassicalAuth: false,
      reason: classicalReason(inputs),
    };
  }
  return {
    verdict: null,
    hybridKexClassicalAuth: false,
    reason: 'no TLS handshake reached the key exchange',
  };
}

/** The post-quantum kind seen, the probe's first (it offered the hybrids), then Node's. */
function postQuantumKind(inputs: VerdictInputs): 'hybrid' | 'pq' | null {
  for (const kind of [inputs.probedGroupKind, inputs.negotiatedGroupKind]) {
    if (kind && isPostQuantumGroup({ kind })) return kind === 'hybrid' ? 'hybrid' : 'pq';
  }
  return null;
}

function classicalReason(inputs: VerdictInputs): string {
  if (inputs.protocol && /^(SSLv|TLSv1(\.[012])?$)/.test(inputs.protocol)) {
    return `${inputs.protocol} has only classical key exchange`;
  }
  if (inputs.negotiatedKeyExchangeKnown || inputs.probedGroupKind) {
    return 'classical key exchange, and no hybrid group chosen when offered';
  }
  return 'no post-quantum group chosen when offered';
}
