import { execFileSync } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate } from '@peculiar/asn1-x509';

/**
 * Certificates, keys and keystores made at run time by the tools that make them in real life
 * (openssl, keytool, ssh-keygen), in a throwaway directory: nothing with a key is committed.
 * keytool and ssh-keygen are optional (`hasKeytool`, `hasSshKeygen`); the tests that need them
 * skip without them. ML-DSA and composite certificates cannot be made by Node 20's OpenSSL, so
 * they are a real certificate re-encoded with the post-quantum OIDs and random key and signature
 * bytes: right for a parser, which never verifies them.
 */
export interface CryptoArtifactFiles {
  dir: string;
  hasKeytool: boolean;
  hasSshKeygen: boolean;
  path(name: string): string;
  read(name: string): Buffer;
  remove(): void;
}

const KEYTOOL = '/usr/bin/keytool';
const SSH_KEYGEN = '/usr/bin/ssh-keygen';

function tool(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: 'ignore' });
}

function selfSigned(dir: string, name: string, newkey: string[], extra: string[] = []): void {
  tool(
    'openssl',
    ['req', '-x509', ...newkey, '-nodes', '-days', '30', '-subj', `/CN=${name}/O=Driftwatch Tests`]
      .concat(extra)
      .concat(['-keyout', `${name}.key`, '-out', `${name}.pem`]),
    dir,
  );
}

function makeSelfSigned(dir: string): void {
  selfSigned(dir, 'rsa-1024', ['-newkey', 'rsa:1024']);
  selfSigned(dir, 'rsa-2048', ['-newkey', 'rsa:2048']);
  selfSigned(dir, 'rsa-4096', ['-newkey', 'rsa:4096']);
  selfSigned(dir, 'p256', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
  selfSigned(dir, 'p384', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], ['-sha384']);
  selfSigned(dir, 'ed25519', ['-newkey', 'ed25519']);
  selfSigned(dir, 'sha1-signed', ['-newkey', 'rsa:2048'], ['-sha1']);
  selfSigned(dir, 'rsa-pss', ['-newkey', 'rsa-pss', '-pkeyopt', 'rsa_keygen_bits:2048']);
  // notAfter a day before now: the one way openssl 3.0 writes a certificate already expired.
  tool(
    'openssl',
    ['req', '-new', '-key', 'p256.key', '-subj', '/CN=expired', '-out', 'expired.csr'],
    dir,
  );
  tool(
    'openssl',
    [
      'x509',
      '-req',
      '-in',
      'expired.csr',
      '-signkey',
      'p256.key',
      '-days',
      '-1',
      '-out',
      'expired.pem',
    ],
    dir,
  );
}

/** root (P-384, CA) → intermediate (P-256, CA) → leaf (RSA 2048), leaf first in chain.pem. */
function makeChain(dir: string): void {
  selfSigned(dir, 'root', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], ['-sha384']);
  const issue = (name: string, issuer: string, key: string[], ca: boolean): void => {
    tool(
      'openssl',
      [
        'req',
        '-new',
        ...key,
        '-nodes',
        '-subj',
        `/CN=${name}`,
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
      ],
      dir,
    );
    writeFileSync(
      join(dir, `${name}.ext`),
      ca ? 'basicConstraints=critical,CA:TRUE\n' : 'basicConstraints=CA:FALSE\n',
    );
    tool(
      'openssl',
      [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${issuer}.pem`,
        '-CAkey',
        `${issuer}.key`,
      ].concat([
        '-CAcreateserial',
        '-days',
        '30',
        '-sha256',
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.pem`,
      ]),
      dir,
    );
  };
  issue('intermediate', 'root', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'], true);
  issue('leaf', 'intermediate', ['-newkey', 'rsa:2048'], false);
  const chain = ['leaf', 'intermediate', 'root'].map((name) =>
    readFileSync(join(dir, `${name}.pem`)),
  );
  writeFileSync(join(dir, 'chain.pem'), Buffer.concat(chain));
  tool('openssl', ['x509', '-in', 'rsa-2048.pem', '-outform', 'DER', '-out', 'rsa-2048.der'], dir);
  tool('openssl', ['crl2pkcs7', '-nocrl', '-certfile', 'chain.pem', '-out', 'chain.p7b'], dir);
  tool(
    'openssl',
    ['crl2pkcs7', '-nocrl', '-certfile', 'chain.pem', '-outform', 'DER', '-out', 'chain-der.p7b'],
    dir,
  );
}

function makePkcs12(dir: string): void {
  const base = [
    'pkcs12',
    '-export',
    '-in',
    'leaf.pem',
    '-inkey',
    'leaf.key',
    '-certfile',
    'intermediate.pem',
  ];
  tool('openssl', [...base, '-passout', 'pass:', '-out', 'empty-password.p12'], dir);
  tool(
    'openssl',
    [...base, '-passout', 'pass:', '-legacy', '-out', 'legacy-empty-password.p12'],
    dir,
  );
  tool(
    'openssl',
    [
      ...base,
      '-passout',
      'pass:',
      '-keypbe',
      'NONE',
      '-certpbe',
      'NONE',
      '-out',
      'unencrypted.p12',
    ],
    dir,
  );
  tool('openssl', [...base, '-passout', 'pass:correct horse', '-out', 'password.p12'], dir);
}

function makeKeys(dir: string): void {
  const openssl = (args: string[]): void => tool('openssl', args, dir);
  openssl(['pkey', '-in', 'rsa-2048.key', '-traditional', '-out', 'rsa-pkcs1.key']);
  openssl(['pkey', '-in', 'p256.key', '-traditional', '-out', 'ec-sec1.key']);
  openssl([
    'genpkey',
    '-genparam',
    '-algorithm',
    'DSA',
    '-pkeyopt',
    'dsa_paramgen_bits:1024',
    '-out',
    'dsa-params.pem',
  ]);
  openssl(['genpkey', '-paramfile', 'dsa-params.pem', '-out', 'dsa-pkcs8.key']);
  openssl(['pkey', '-in', 'dsa-pkcs8.key', '-traditional', '-out', 'dsa.key']);
  openssl([
    'pkcs8',
    '-topk8',
    '-in',
    'p384.key',
    '-v2',
    'aes-256-cbc',
    '-passout',
    'pass:x',
    '-out',
    'encrypted-pkcs8.key',
  ]);
  openssl([
    'pkey',
    '-in',
    'rsa-2048.key',
    '-traditional',
    '-aes256',
    '-passout',
    'pass:x',
    '-out',
    'legacy-encrypted.key',
  ]);
  openssl(['pkey', '-in', 'p384.key', '-pubout', '-out', 'p384-public.pem']);
  openssl(['rsa', '-in', 'rsa-4096.key', '-RSAPublicKey_out', '-out', 'rsa-pkcs1-public.pem']);
  openssl(['pkey', '-in', 'ed25519.key', '-outform', 'DER', '-out', 'ed25519-pkcs8.der']);
  openssl(['pkey', '-in', 'dsa.key', '-traditional', '-outform', 'DER', '-out', 'dsa.der']);
  openssl([
    'rsa',
    '-in',
    'rsa-2048.key',
    '-RSAPublicKey_out',
    '-outform',
    'DER',
    '-out',
    'rsa-pkcs1-public.der',
  ]);
  openssl(['pkey', '-in', 'p256.key', '-traditional', '-outform', 'DER', '-out', 'ec-sec1.der']);
}

function makeJavaKeystores(dir: string): void {
  const keytool = (args: string[]): void => tool(KEYTOOL, args, dir);
  for (const type of ['JKS', 'JCEKS']) {
    const store = type === 'JKS' ? 'keystore.jks' : 'keystore.jceks';
    const common = ['-keystore', store, '-storetype', type, '-storepass', 'changeit'];
    keytool(
      ['-genkeypair', '-alias', 'server', '-keyalg', 'EC', '-groupname', 'secp384r1'].concat([
        '-dname',
        'CN=server',
        '-keypass',
        'changeit',
        '-validity',
        '30',
        ...common,
      ]),
    );
    keytool(['-importcert', '-noprompt', '-alias', 'root-ca', '-file', 'root.pem', ...common]);
  }
}

function makeOpenSsh(dir: string): void {
  const keygen = (args: string[]): void => tool(SSH_KEYGEN, ['-q', ...args], dir);
  keygen(['-t', 'ed25519', '-N', '', '-C', 'deploy@example', '-f', 'id_ed25519']);
  keygen(['-t', 'rsa', '-b', '2048', '-N', 'passphrase', '-C', 'ops@example', '-f', 'id_rsa']);
  keygen(['-t', 'ecdsa', '-b', '256', '-N', '', '-f', 'id_ecdsa']);
  const lines = [
    readFileSync(join(dir, 'id_ed25519.pub'), 'utf8').trim(),
    `command="/usr/bin/backup",no-pty ${readFileSync(join(dir, 'id_rsa.pub'), 'utf8').trim()}`,
    '# a comment that says ssh-rsa is deprecated',
    readFileSync(join(dir, 'id_ecdsa.pub'), 'utf8').trim(),
  ];
  writeFileSync(join(dir, 'authorized_keys'), `${lines.join('\n')}\n`);
}

/** A real certificate re-encoded with `oid` as key and signature algorithm. */
export function postQuantumCertificate(
  template: Buffer,
  oid: string,
  keyBytes: number,
  signatureBytes: number,
): Buffer {
  const certificate = AsnConvert.parse(template, Certificate);
  certificate.signatureAlgorithm = new AlgorithmIdentifier({ algorithm: oid });
  certificate.tbsCertificate.signature = new AlgorithmIdentifier({ algorithm: oid });
  certificate.tbsCertificate.subjectPublicKeyInfo.algorithm = new AlgorithmIdentifier({
    algorithm: oid,
  });
  certificate.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey = new Uint8Array(
    randomBytes(keyBytes),
  ).buffer;
  certificate.signatureValue = new Uint8Array(randomBytes(signatureBytes)).buffer;
  return Buffer.from(AsnConvert.serialize(certificate));
}

function makePostQuantum(dir: string): void {
  const template = new X509Certificate(readFileSync(join(dir, 'p256.pem'))).raw;
  const pem = (der: Buffer): string =>
    `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
  writeFileSync(
    join(dir, 'ml-dsa-65.pem'),
    pem(postQuantumCertificate(template, '2.16.840.1.101.3.4.3.18', 1952, 3309)),
  );
  // id-MLDSA65-ECDSA-P256-SHA512 (draft-ietf-lamps-pq-composite-sigs).
  writeFileSync(
    join(dir, 'composite.pem'),
    pem(postQuantumCertificate(template, '1.3.6.1.5.5.7.6.45', 2017, 3381)),
  );
}

/** Make every artifact once; the caller removes the directory. */
export function generateCryptoArtifacts(parent = tmpdir()): CryptoArtifactFiles {
  const dir = mkdtempSync(join(parent, 'driftwatch-crypto-'));
  const hasKeytool = existsSync(KEYTOOL);
  const hasSshKeygen = existsSync(SSH_KEYGEN);
  makeSelfSigned(dir);
  makeChain(dir);
  makePkcs12(dir);
  makeKeys(dir);
  makePostQuantum(dir);
  if (hasKeytool) makeJavaKeystores(dir);
  if (hasSshKeygen) makeOpenSsh(dir);
  return {
    dir,
    hasKeytool,
    hasSshKeygen,
    path: (name) => join(dir, name),
    read: (name) => readFileSync(join(dir, name)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
