import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import { describe, expect, it } from 'vitest';
import { MAX_CRYPTO_FILE_BYTES } from './candidates.js';
import { MAX_FACTS_PER_FILE } from './collector.js';
import { readCryptoArtifacts } from './read-artifacts.js';
import type { CryptoArtifacts } from './types.js';

const NOW = new Date();
/** Generous for a 2-core CI machine; the point is "does not hang", not a benchmark. */
const BUDGET_MS = 3_000;

function timed(path: string, bytes: Buffer): { result: CryptoArtifacts; ms: number } {
  const started = performance.now();
  const result = readCryptoArtifacts(path, bytes, NOW);
  return { result, ms: performance.now() - started };
}

function pem(label: string, body: Buffer): string {
  return `-----BEGIN ${label}-----\n${body.toString('base64')}\n-----END ${label}-----\n`;
}

function nested(depth: number): Buffer {
  const bytes = Buffer.alloc(depth * 2);
  for (let index = 0; index < depth; index++) bytes.set([0x30, 0x80], index * 2);
  return bytes;
}

/** A PFX of `parts` EncryptedData, each asking for `iterations` of PBKDF2 (or the PKCS#12 KDF). */
function pfxWithIterations(iterations: number, scheme: 'pbes2' | 'pkcs12-pbe', parts = 1): Buffer {
  const { Sequence, ObjectIdentifier: Oid, Integer, OctetString, Constructed, Primitive } = asn1js;
  const salt = new OctetString({ valueHex: randomBytes(8) });
  const count = new Integer({ value: iterations });
  const algorithm =
    scheme === 'pbes2'
      ? new Sequence({
          value: [
            new Oid({ value: '1.2.840.113549.1.5.13' }),
            new Sequence({
              value: [
                new Sequence({
                  value: [
                    new Oid({ value: '1.2.840.113549.1.5.12' }),
                    new Sequence({ value: [salt, count] }),
                  ],
                }),
                new Sequence({
                  value: [
                    new Oid({ value: '2.16.840.1.101.3.4.1.42' }),
                    new OctetString({ valueHex: randomBytes(16) }),
                  ],
                }),
              ],
            }),
          ],
        })
      : new Sequence({
          value: [
            new Oid({ value: '1.2.840.113549.1.12.1.3' }),
            new Sequence({ value: [salt, count] }),
          ],
        });
  const encryptedData = new Sequence({
    value: [
      new Integer({ value: 0 }),
      new Sequence({
        value: [
          new Oid({ value: '1.2.840.113549.1.7.1' }),
          algorithm,
          new Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: randomBytes(64) }),
        ],
      }),
    ],
  });
  const contentInfo = new Sequence({
    value: [
      new Oid({ value: '1.2.840.113549.1.7.6' }),
      new Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [encryptedData] }),
    ],
  });
  const authSafe = new Sequence({
    value: Array.from({ length: parts }, () => contentInfo),
  }).toBER();
  const pfx = new Sequence({
    value: [
      new Integer({ value: 3 }),
      new Sequence({
        value: [
          new Oid({ value: '1.2.840.113549.1.7.1' }),
          new Constructed({
            idBlock: { tagClass: 3, tagNumber: 0 },
            value: [new OctetString({ valueHex: authSafe })],
          }),
        ],
      }),
    ],
  });
  return Buffer.from(pfx.toBER());
}

function keystoreHeader(count: number): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt32BE(0xfeedfeed, 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(count, 8);
  return header;
}

function selfSignedDer(): Buffer {
  const pemText = execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ed25519',
      '-nodes',
      '-keyout',
      '/dev/null',
      '-subj',
      '/CN=x',
      '-days',
      '1',
    ],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  ).toString('latin1');
  const body = pemText
    .split('\n')
    .filter((line) => line && !line.startsWith('-----'))
    .join('');
  return Buffer.from(body, 'base64');
}

interface HostileScenario {
  scenario: string;
  path: string;
  bytes: () => Buffer;
  problem: RegExp;
}

const HOSTILE: HostileScenario[] = [
  {
    scenario: 'random-bytes-named-pem',
    path: 'garbage.pem',
    bytes: () => randomBytes(64 * 1024),
    problem: /no certificate, key or keystore/,
  },
  {
    scenario: 'random-bytes-starting-like-der',
    path: 'garbage.der',
    bytes: () => Buffer.concat([Buffer.from([0x30, 0x82]), randomBytes(4096)]),
    problem: /no certificate/,
  },
  {
    scenario: 'truncated-der-certificate',
    path: 'cut.der',
    bytes: () => selfSignedDer().subarray(0, 150),
    problem: /no certificate/,
  },
  {
    scenario: 'truncated-pem-certificate',
    path: 'cut.pem',
    bytes: () => Buffer.from(pem('CERTIFICATE', selfSignedDer().subarray(0, 150))),
    problem: /line 1: a certificate that could not be read/,
  },
  {
    scenario: 'der-claiming-a-2-gib-length',
    path: 'huge.der',
    bytes: () => Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x02, 0x01, 0x00]),
    problem: /no certificate/,
  },
  {
    scenario: 'asn1-nested-200000-deep',
    path: 'deep.der',
    bytes: () => nested(200_000),
    problem: /no certificate/,
  },
  {
    scenario: 'asn1-nested-deep-inside-pem',
    path: 'deep.pem',
    bytes: () => Buffer.from(pem('CERTIFICATE', nested(100_000))),
    problem: /could not be read/,
  },
  {
    scenario: 'private-key-block-of-garbage',
    path: 'bad.key',
    bytes: () => Buffer.from(pem('PRIVATE KEY', randomBytes(600))),
    problem: /line 1: a PRIVATE KEY that could not be read/,
  },
  {
    scenario: 'pem-body-not-base64',
    path: 'bad.pem',
    bytes: () =>
      Buffer.from('-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n'),
    problem: /not valid base64/,
  },
  {
    scenario: 'one-mebibyte-of-pem-headers',
    path: 'headers.pem',
    bytes: () =>
      Buffer.from('-----BEGIN CERTIFICATE-----\n'.repeat(Math.floor(MAX_CRYPTO_FILE_BYTES / 28))),
    problem: /has no END line/,
  },
  {
    scenario: 'one-mebibyte-of-begin-lines-and-one-end',
    path: 'headers.pem',
    bytes: () =>
      Buffer.from(`${'-----BEGIN CERTIFICATE-----\n'.repeat(37_000)}-----END CERTIFICATE-----\n`),
    problem: /has no END line/,
  },
  {
    scenario: 'keystore-claiming-2^31-entries',
    path: 'big.jks',
    bytes: () => Buffer.concat([keystoreHeader(0x80000000), randomBytes(64)]),
    problem: /truncated or malformed|unknown keystore entry/,
  },
  {
    scenario: 'keystore-certificate-claiming-2-gib',
    path: 'big.jks',
    bytes: () => {
      const entry = Buffer.alloc(4 + 2 + 1 + 8 + 2 + 5 + 4);
      let offset = entry.writeUInt32BE(2, 0);
      offset = entry.writeUInt16BE(1, offset);
      offset = entry.write('a', offset, 'latin1');
      offset += 8;
      offset = entry.writeUInt16BE(5, offset);
      offset += entry.write('X.509', offset, 'latin1');
      entry.writeUInt32BE(0x7fffffff, offset);
      return Buffer.concat([keystoreHeader(1), entry]);
    },
    problem: /truncated or malformed/,
  },
  {
    scenario: 'pkcs12-pbkdf2-2^31-iterations',
    path: 'slow.p12',
    bytes: () => pfxWithIterations(0x7fffffff, 'pbes2'),
    problem: /iteration count of 2147483647/,
  },
  {
    scenario: 'pkcs12-pbe-2^31-iterations',
    path: 'slow.p12',
    bytes: () => pfxWithIterations(0x7fffffff, 'pkcs12-pbe'),
    problem: /iteration count of 2147483647/,
  },
  {
    scenario: 'larger-than-the-cap',
    path: 'big.pem',
    bytes: () => Buffer.alloc(MAX_CRYPTO_FILE_BYTES + 1, 0x41),
    problem: /larger than/,
  },
];

describe('readCryptoArtifacts on hostile input', () => {
  it.each(HOSTILE)('$scenario: a problem, no throw, no hang', ({ path, bytes, problem }) => {
    const { result, ms } = timed(path, bytes());
    expect(result.certificates).toEqual([]);
    expect(result.keys).toEqual([]);
    expect(result.problems.some((text) => problem.test(text))).toBe(true);
    expect(result.problems.length).toBeLessThanOrEqual(22);
    expect(ms).toBeLessThan(BUDGET_MS);
  });

  it('stops listing at the per-file cap and says so', () => {
    const one = pem('CERTIFICATE', selfSignedDer());
    const text = one.repeat(
      Math.min(MAX_FACTS_PER_FILE + 50, Math.floor(MAX_CRYPTO_FILE_BYTES / one.length)),
    );
    const { result, ms } = timed('bundle.pem', Buffer.from(text));
    expect(result.certificates).toHaveLength(MAX_FACTS_PER_FILE);
    expect(result.problems.join('\n')).toMatch(/more than 512 PEM blocks/);
    expect(ms).toBeLessThan(BUDGET_MS * 2);
  });

  it('charges several encrypted parts to one iteration budget per file', () => {
    // Each part is under the per-derivation cap; the third goes over the file's budget.
    const { result, ms } = timed('many.p12', pfxWithIterations(150_000, 'pbes2', 10));
    expect(result.problems.slice(0, 2)).toEqual([
      'PKCS#12 certificates are encrypted with a password; not read',
      'PKCS#12 certificates are encrypted with a password; not read',
    ]);
    expect(result.problems.slice(2)).toEqual(
      Array(8).fill('PKCS#12 certificates not read: an iteration count of 150000'),
    );
    expect(ms).toBeLessThan(BUDGET_MS);
  });

  it('finds nothing and says nothing in a sniffed source file that only names key types', () => {
    const source = Buffer.from(
      [
        "const prefix = 'ssh-rsa ' + key;",
        'if (type === "ecdsa-sha2-nistp256 ") return;',
        '// -----BEGIN PGP SIGNATURE----- is not ours',
      ].join('\n'),
    );
    expect(readCryptoArtifacts('src/keys.ts', source, NOW)).toEqual({
      certificates: [],
      keys: [],
      problems: [],
    });
  });
});
