import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CryptoArtifactFiles,
  generateCryptoArtifacts,
} from '../../../test/support/crypto-artifacts.js';
import { readCryptoArtifacts } from './read-artifacts.js';
import type { CertificateFact, CryptoArtifacts, KeyFact } from './types.js';

let files: CryptoArtifactFiles;
const NOW = new Date();

beforeAll(() => {
  files = generateCryptoArtifacts();
}, 120_000);
afterAll(() => files?.remove());

function read(name: string): CryptoArtifacts {
  return readCryptoArtifacts(`config/tls/${name}`, files.read(name), NOW);
}

/** 1-based lines of each BEGIN armour in a generated file. */
function beginLines(name: string): number[] {
  return files
    .read(name)
    .toString('utf8')
    .split('\n')
    .flatMap((line, index) => (line.startsWith('-----BEGIN ') ? [index + 1] : []));
}

type Needs = 'keytool' | 'ssh-keygen';
function skipped(needs: Needs | undefined): boolean {
  if (needs === 'keytool') return !files.hasKeytool;
  if (needs === 'ssh-keygen') return !files.hasSshKeygen;
  return false;
}

interface CertificateScenario {
  scenario: string;
  file: string;
  certificates: Partial<CertificateFact>[];
  problems?: RegExp[];
  needs?: Needs;
}

const SELF_SIGNED = {
  selfSigned: true,
  isCa: true,
  expired: false,
  line: 1,
  container: 'pem',
} as const;
const LEAF = {
  keyAlgorithm: 'RSA',
  keySize: 2048,
  subject: 'CN=leaf',
  isCa: false,
  selfSigned: false,
} as const;
const INTERMEDIATE = {
  keyAlgorithm: 'ECDSA',
  curve: 'P-256',
  subject: 'CN=intermediate',
  isCa: true,
  selfSigned: false,
} as const;
const ROOT = { keyAlgorithm: 'ECDSA', curve: 'P-384', selfSigned: true, isCa: true } as const;

const CERTIFICATES: CertificateScenario[] = [
  {
    scenario: 'rsa-1024-self-signed-is-weak',
    file: 'rsa-1024.pem',
    certificates: [
      {
        ...SELF_SIGNED,
        subject: 'CN=rsa-1024, O=Driftwatch Tests',
        issuer: 'CN=rsa-1024, O=Driftwatch Tests',
        keyAlgorithm: 'RSA',
        keyAlgorithmOid: '1.2.840.113549.1.1.1',
        keySize: 1024,
        signatureAlgorithm: 'sha256WithRSAEncryption',
        signatureAlgorithmOid: '1.2.840.113549.1.1.11',
        signatureHash: 'SHA-256',
        classification: 'weak',
      },
    ],
  },
  {
    scenario: 'rsa-2048-is-deprecated-after-2030',
    file: 'rsa-2048.pem',
    certificates: [
      { ...SELF_SIGNED, keyAlgorithm: 'RSA', keySize: 2048, classification: 'deprecated-2030' },
    ],
  },
  {
    scenario: 'rsa-4096-is-disallowed-after-2035',
    file: 'rsa-4096.pem',
    certificates: [
      { ...SELF_SIGNED, keyAlgorithm: 'RSA', keySize: 4096, classification: 'disallowed-2035' },
    ],
  },
  {
    scenario: 'p256',
    file: 'p256.pem',
    certificates: [
      {
        ...SELF_SIGNED,
        keyAlgorithm: 'ECDSA',
        curve: 'P-256',
        keySize: 256,
        signatureAlgorithm: 'ecdsa-with-SHA256',
        classification: 'disallowed-2035',
      },
    ],
  },
  {
    scenario: 'p384-signed-with-sha384',
    file: 'p384.pem',
    certificates: [
      { ...SELF_SIGNED, curve: 'P-384', keySize: 384, signatureAlgorithm: 'ecdsa-with-SHA384' },
    ],
  },
  {
    scenario: 'ed25519',
    file: 'ed25519.pem',
    certificates: [
      {
        ...SELF_SIGNED,
        keyAlgorithm: 'EdDSA',
        curve: 'Ed25519',
        signatureAlgorithm: 'ED25519',
        classification: 'disallowed-2035',
      },
    ],
  },
  {
    scenario: 'sha1-signature-makes-rsa-2048-weak',
    file: 'sha1-signed.pem',
    certificates: [
      {
        signatureAlgorithm: 'sha1WithRSAEncryption',
        signatureHash: 'SHA-1',
        classification: 'weak',
      },
    ],
  },
  {
    scenario: 'rsa-pss-names-its-hash-from-the-parameters',
    file: 'rsa-pss.pem',
    certificates: [
      {
        keyAlgorithm: 'RSA',
        keySize: 2048,
        signatureAlgorithm: 'RSASSA-PSS',
        signatureHash: 'SHA-256',
      },
    ],
  },
  {
    scenario: 'expired',
    file: 'expired.pem',
    certificates: [{ subject: 'CN=expired', expired: true, selfSigned: true }],
  },
  {
    scenario: 'der-certificate',
    file: 'rsa-2048.der',
    certificates: [{ keyAlgorithm: 'RSA', keySize: 2048, container: 'der', line: 1 }],
  },
  {
    scenario: 'pkcs7-bundle-pem',
    file: 'chain.p7b',
    certificates: [LEAF, INTERMEDIATE, ROOT].map((fact) => ({
      ...fact,
      container: 'pkcs7',
      line: 1,
    })),
  },
  {
    scenario: 'pkcs7-bundle-der',
    file: 'chain-der.p7b',
    certificates: [LEAF, INTERMEDIATE, ROOT].map((fact) => ({ ...fact, container: 'pkcs7' })),
  },
  {
    scenario: 'pkcs12-empty-password-pbes2',
    file: 'empty-password.p12',
    certificates: [LEAF, INTERMEDIATE].map((fact) => ({ ...fact, container: 'pkcs12' })),
  },
  {
    scenario: 'pkcs12-empty-password-legacy-rc2',
    file: 'legacy-empty-password.p12',
    certificates: [LEAF, INTERMEDIATE].map((fact) => ({ ...fact, container: 'pkcs12' })),
  },
  {
    scenario: 'pkcs12-unencrypted',
    file: 'unencrypted.p12',
    certificates: [LEAF, INTERMEDIATE].map((fact) => ({ ...fact, container: 'pkcs12' })),
  },
  {
    scenario: 'pkcs12-with-a-password-is-a-problem-not-a-crash',
    file: 'password.p12',
    certificates: [],
    problems: [/encrypted with a password/],
  },
  {
    scenario: 'jks-key-entry-chain-and-trusted-certificate',
    file: 'keystore.jks',
    needs: 'keytool',
    certificates: [
      { subject: 'CN=server', alias: 'server', curve: 'P-384', container: 'jks', selfSigned: true },
      { ...ROOT, alias: 'root-ca', container: 'jks' },
    ],
  },
  {
    scenario: 'jceks-key-entry-chain-and-trusted-certificate',
    file: 'keystore.jceks',
    needs: 'keytool',
    certificates: [
      { subject: 'CN=server', alias: 'server', container: 'jceks' },
      { ...ROOT, alias: 'root-ca', container: 'jceks' },
    ],
  },
  {
    scenario: 'ml-dsa-65-is-quantum-safe',
    file: 'ml-dsa-65.pem',
    certificates: [
      {
        keyAlgorithm: 'ML-DSA',
        parameterSet: 'ML-DSA-65',
        keyAlgorithmOid: '2.16.840.1.101.3.4.3.18',
        signatureAlgorithm: 'ML-DSA-65',
        classification: 'quantum-safe',
        selfSigned: true,
      },
    ],
  },
  {
    scenario: 'composite-ml-dsa-is-hybrid',
    file: 'composite.pem',
    certificates: [
      {
        keyAlgorithm: 'composite',
        parameterSet: 'MLDSA65-ECDSA-P256-SHA512',
        signatureAlgorithm: 'MLDSA65-ECDSA-P256-SHA512',
        classification: 'hybrid',
      },
    ],
  },
];

describe('readCryptoArtifacts: certificates', () => {
  it.each(CERTIFICATES)('$scenario', ({ file, certificates, problems = [], needs }) => {
    if (skipped(needs)) return;
    const result = read(file);
    expect(result.certificates).toHaveLength(certificates.length);
    // A Java keystore lists its entries in hash order: compare them by alias.
    const byAlias = (a: Partial<CertificateFact>, b: Partial<CertificateFact>): number =>
      (a.alias ?? '').localeCompare(b.alias ?? '');
    const actual =
      needs === 'keytool' ? [...result.certificates].sort(byAlias) : result.certificates;
    const wanted = needs === 'keytool' ? [...certificates].sort(byAlias) : certificates;
    wanted.forEach((expected, index) => {
      expect(actual[index]).toMatchObject(expected);
    });
    expect(result.problems).toHaveLength(problems.length);
    problems.forEach((pattern, index) => {
      expect(result.problems[index]).toMatch(pattern);
    });
  });

  it('lists a chain in one PEM with each certificate at its own BEGIN line', () => {
    const result = read('chain.pem');
    expect(result.certificates.map((fact) => fact.line)).toEqual(beginLines('chain.pem'));
    expect(result.certificates).toMatchObject([
      { ...LEAF, issuer: 'CN=intermediate', classification: 'deprecated-2030' },
      { ...INTERMEDIATE, issuer: 'CN=root, O=Driftwatch Tests' },
      { ...ROOT, subject: 'CN=root, O=Driftwatch Tests' },
    ]);
  });

  it('gives the serial, validity and fingerprint openssl gives', async () => {
    const { X509Certificate } = await import('node:crypto');
    const node = new X509Certificate(files.read('p256.pem'));
    const [fact] = read('p256.pem').certificates;
    expect(fact?.serialNumber).toBe(node.serialNumber.toLowerCase().replace(/^(00)+(?=.)/, ''));
    expect(fact?.fingerprintSha256).toBe(node.fingerprint256.replaceAll(':', '').toLowerCase());
    expect(new Date(fact?.notAfter ?? '').getTime()).toBe(new Date(node.validTo).getTime());
    expect(fact?.der.equals(node.raw)).toBe(true);
  });
});

interface KeyScenario {
  scenario: string;
  file: string;
  keys: Partial<KeyFact>[];
  needs?: Needs;
}

const KEYS: KeyScenario[] = [
  {
    scenario: 'pkcs8-rsa-2048',
    file: 'rsa-2048.key',
    keys: [
      {
        kind: 'private',
        format: 'pkcs8',
        algorithm: 'RSA',
        keySize: 2048,
        encrypted: false,
        classification: 'deprecated-2030',
        line: 1,
      },
    ],
  },
  {
    scenario: 'pkcs1-rsa',
    file: 'rsa-pkcs1.key',
    keys: [{ kind: 'private', format: 'pkcs1', algorithm: 'RSA', keySize: 2048 }],
  },
  {
    scenario: 'sec1-ec',
    file: 'ec-sec1.key',
    keys: [{ kind: 'private', format: 'sec1', algorithm: 'ECDSA', curve: 'P-256' }],
  },
  {
    scenario: 'openssl-dsa-is-weak',
    file: 'dsa.key',
    keys: [{ format: 'openssl-dsa', algorithm: 'DSA', keySize: 1024, classification: 'weak' }],
  },
  {
    scenario: 'pkcs8-dsa',
    file: 'dsa-pkcs8.key',
    keys: [{ format: 'pkcs8', algorithm: 'DSA', keySize: 1024 }],
  },
  {
    scenario: 'pkcs8-ed25519',
    file: 'ed25519.key',
    keys: [{ format: 'pkcs8', algorithm: 'EdDSA', curve: 'Ed25519' }],
  },
  {
    scenario: 'pkcs8-ed25519-der',
    file: 'ed25519-pkcs8.der',
    keys: [{ format: 'pkcs8', algorithm: 'EdDSA', line: 1 }],
  },
  {
    scenario: 'openssl-dsa-der',
    file: 'dsa.der',
    keys: [{ format: 'openssl-dsa', algorithm: 'DSA', keySize: 1024 }],
  },
  {
    scenario: 'pkcs1-public-der',
    file: 'rsa-pkcs1-public.der',
    keys: [{ kind: 'public', format: 'pkcs1', keySize: 2048 }],
  },
  {
    scenario: 'sec1-der',
    file: 'ec-sec1.der',
    keys: [{ kind: 'private', format: 'sec1', curve: 'P-256' }],
  },
  {
    scenario: 'encrypted-pkcs8-algorithm-unknown',
    file: 'encrypted-pkcs8.key',
    keys: [
      {
        kind: 'private',
        format: 'pkcs8',
        algorithm: 'unknown',
        encrypted: true,
        classification: 'deprecated-2030',
      },
    ],
  },
  {
    scenario: 'legacy-encrypted-pem-names-its-algorithm',
    file: 'legacy-encrypted.key',
    keys: [
      { format: 'pkcs1', algorithm: 'RSA', encrypted: true, classification: 'deprecated-2030' },
    ],
  },
  {
    scenario: 'spki-public-p384',
    file: 'p384-public.pem',
    keys: [{ kind: 'public', format: 'spki', algorithm: 'ECDSA', curve: 'P-384' }],
  },
  {
    scenario: 'pkcs1-public-rsa-4096',
    file: 'rsa-pkcs1-public.pem',
    keys: [
      {
        kind: 'public',
        format: 'pkcs1',
        algorithm: 'RSA',
        keySize: 4096,
        classification: 'disallowed-2035',
      },
    ],
  },
  {
    scenario: 'pkcs12-key-described-by-its-certificate',
    file: 'empty-password.p12',
    keys: [
      {
        kind: 'private',
        format: 'pkcs12',
        algorithm: 'RSA',
        keySize: 2048,
        encrypted: true,
        algorithmFrom: 'certificate',
      },
    ],
  },
  {
    scenario: 'pkcs12-plain-key-bag-described-by-itself',
    file: 'unencrypted.p12',
    keys: [
      { kind: 'private', format: 'pkcs12', algorithm: 'RSA', keySize: 2048, encrypted: false },
    ],
  },
  {
    scenario: 'pkcs12-with-a-password-still-counts-its-key',
    file: 'password.p12',
    keys: [{ kind: 'private', format: 'pkcs12', algorithm: 'unknown', encrypted: true }],
  },
  {
    scenario: 'jks-private-key-entry',
    file: 'keystore.jks',
    needs: 'keytool',
    keys: [
      {
        kind: 'private',
        format: 'jks',
        algorithm: 'ECDSA',
        curve: 'P-384',
        encrypted: true,
        label: 'server',
        algorithmFrom: 'certificate',
      },
    ],
  },
  {
    scenario: 'openssh-private-ed25519',
    file: 'id_ed25519',
    needs: 'ssh-keygen',
    keys: [
      {
        kind: 'private',
        format: 'openssh',
        algorithm: 'EdDSA',
        curve: 'Ed25519',
        encrypted: false,
      },
    ],
  },
  {
    scenario: 'openssh-private-rsa-with-passphrase',
    file: 'id_rsa',
    needs: 'ssh-keygen',
    keys: [
      { kind: 'private', format: 'openssh', algorithm: 'RSA', keySize: 2048, encrypted: true },
    ],
  },
  {
    scenario: 'openssh-public-line',
    file: 'id_ed25519.pub',
    needs: 'ssh-keygen',
    keys: [
      {
        kind: 'public',
        format: 'ssh-public',
        algorithm: 'EdDSA',
        label: 'deploy@example',
        line: 1,
      },
    ],
  },
  {
    scenario: 'authorized-keys-with-options-and-comments',
    file: 'authorized_keys',
    needs: 'ssh-keygen',
    keys: [
      { algorithm: 'EdDSA', line: 1 },
      { algorithm: 'RSA', keySize: 2048, line: 2, label: 'ops@example' },
      { algorithm: 'ECDSA', curve: 'P-256', line: 4 },
    ],
  },
];

describe('readCryptoArtifacts: keys', () => {
  it.each(KEYS)('$scenario', ({ file, keys, needs }) => {
    if (skipped(needs)) return;
    const result = read(file);
    expect(result.keys).toHaveLength(keys.length);
    keys.forEach((expected, index) => {
      expect(result.keys[index]).toMatchObject(expected);
    });
  });

  it.each([
    'rsa-2048.key',
    'rsa-pkcs1.key',
    'ec-sec1.key',
    'dsa.key',
    'id_ed25519',
    'empty-password.p12',
  ])('never returns the bytes of %s', (file) => {
    if (file === 'id_ed25519' && !files.hasSshKeygen) return;
    const result = read(file);
    const text = JSON.stringify({
      ...result,
      certificates: result.certificates.map(({ der: _, ...fact }) => fact),
    });
    const body = files.read(file);
    const chunks = file.endsWith('.p12')
      ? [body.subarray(body.length - 64).toString('base64')]
      : body
          .toString('utf8')
          .split('\n')
          .filter((line) => line.length >= 40);
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(text).not.toContain(chunk);
  });
});
