import { describe, expect, it } from 'vitest';
import { tlsVerdict, type VerdictInputs, type VerdictResult } from './verdict.js';

const nothing: VerdictInputs = {
  protocol: null,
  negotiatedGroupKind: null,
  negotiatedKeyExchangeKnown: false,
  probedGroupKind: null,
  probeAnswered: false,
  authentication: 'unknown',
};

describe('tlsVerdict', () => {
  const scenarios: [string, Partial<VerdictInputs>, Partial<VerdictResult>][] = [
    [
      'TLS 1.3 on x25519, probe also classical',
      {
        protocol: 'TLSv1.3',
        negotiatedGroupKind: 'classical',
        negotiatedKeyExchangeKnown: true,
        probedGroupKind: 'classical',
        probeAnswered: true,
      },
      { verdict: 'vulnerable', hybridKexClassicalAuth: false },
    ],
    [
      'TLS 1.2 only (the probe got a ServerHello without a group)',
      {
        protocol: 'TLSv1.2',
        negotiatedGroupKind: 'classical',
        negotiatedKeyExchangeKnown: true,
        probeAnswered: true,
      },
      { verdict: 'vulnerable', reason: 'TLSv1.2 has only classical key exchange' },
    ],
    [
      'RSA key transport',
      { protocol: 'TLSv1.2', negotiatedKeyExchangeKnown: true },
      { verdict: 'vulnerable' },
    ],
    [
      'hybrid through the probe, Node negotiated x25519, classical chain',
      {
        protocol: 'TLSv1.3',
        negotiatedGroupKind: 'classical',
        negotiatedKeyExchangeKnown: true,
        probedGroupKind: 'hybrid',
        probeAnswered: true,
        authentication: 'classical',
      },
      {
        verdict: 'hybrid',
        hybridKexClassicalAuth: true,
        reason: 'hybrid key exchange, classical authentication',
      },
    ],
    [
      'hybrid through the probe alone (Node could not finish a handshake)',
      { probedGroupKind: 'hybrid', probeAnswered: true },
      { verdict: 'hybrid', hybridKexClassicalAuth: true },
    ],
    [
      'hybrid negotiated by a newer Node itself',
      { protocol: 'TLSv1.3', negotiatedGroupKind: 'hybrid', negotiatedKeyExchangeKnown: true },
      { verdict: 'hybrid', hybridKexClassicalAuth: true },
    ],
    [
      'pure ML-KEM',
      {
        protocol: 'TLSv1.3',
        probedGroupKind: 'pq',
        probeAnswered: true,
        authentication: 'classical',
      },
      { verdict: 'pq-kex', hybridKexClassicalAuth: true },
    ],
    [
      'hybrid with an ML-DSA chain',
      {
        protocol: 'TLSv1.3',
        probedGroupKind: 'hybrid',
        probeAnswered: true,
        authentication: 'post-quantum',
      },
      { verdict: 'quantum-safe', hybridKexClassicalAuth: false },
    ],
    [
      'pure ML-KEM with an ML-DSA chain',
      { probedGroupKind: 'pq', probeAnswered: true, authentication: 'post-quantum' },
      { verdict: 'quantum-safe' },
    ],
    [
      'a post-quantum chain on a classical key exchange',
      {
        protocol: 'TLSv1.3',
        negotiatedGroupKind: 'classical',
        negotiatedKeyExchangeKnown: true,
        authentication: 'post-quantum',
      },
      { verdict: 'vulnerable' },
    ],
    [
      'an obsolete Kyber draft group is not counted as hybrid',
      { protocol: 'TLSv1.3', probedGroupKind: 'draft', probeAnswered: true },
      { verdict: 'vulnerable' },
    ],
    ['nothing learnt', {}, { verdict: null, hybridKexClassicalAuth: false }],
  ];
  it.each(scenarios)('%s', (_name, inputs, expected) => {
    expect(tlsVerdict({ ...nothing, ...inputs })).toMatchObject(expected);
  });
});
