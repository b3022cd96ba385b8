import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway self-signed certificate (openssl), its own authority, for TLS on loopback. */
export interface SelfSignedCertificate {
  /** The directory holding key.pem and cert.pem. */
  dir: string;
  key: Buffer;
  cert: Buffer;
  /** cert.pem's path: the file a client is told to trust. */
  certFile: string;
  remove: () => void;
}

/** The key a test certificate gets: RSA 2048 (the default) or an EC P-256 key. */
export type TestKeyType = 'rsa' | 'ec';

function newKeyArguments(keyType: TestKeyType): string[] {
  return keyType === 'ec'
    ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']
    : ['-newkey', 'rsa:2048'];
}

/**
 * A certificate for `commonName` that also covers `altNames` (`IP:127.0.0.2`, `DNS:x.test`),
 * valid for a day (or `days`), written to a new directory below `parent` (default: the
 * temporary directory).
 */
export function selfSignedCertificate(
  commonName: string,
  altNames: string[],
  parent = tmpdir(),
  options: { keyType?: TestKeyType; days?: number } = {},
): SelfSignedCertificate {
  const dir = mkdtempSync(join(parent, 'driftwatch-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', ...newKeyArguments(options.keyType ?? 'rsa'), '-nodes']
      .concat(['-days', String(options.days ?? 1)])
      .concat(['-subj', `/CN=${commonName}`])
      .concat(['-addext', `subjectAltName=${altNames.join(',')}`])
      .concat(['-keyout', keyFile, '-out', certFile]),
    { stdio: 'ignore' },
  );
  return {
    dir,
    key: readFileSync(keyFile),
    cert: readFileSync(certFile),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A leaf signed by its own throwaway root: what a server presents as a two-certificate chain. */
export interface CertificateChain {
  /** The leaf's private key (PEM). */
  key: Buffer;
  /** The leaf followed by the root (PEM), as a server sends it. */
  chain: Buffer;
  leaf: Buffer;
  root: Buffer;
  remove: () => void;
}

/** A root authority and a leaf for `commonName`/`altNames` it signed, valid for a day. */
export function certificateChain(
  commonName: string,
  altNames: string[],
  options: { keyType?: TestKeyType } = {},
): CertificateChain {
  const root = selfSignedCertificate('Driftwatch Test Root', [`DNS:root.invalid`]);
  const dir = root.dir;
  const file = (name: string) => join(dir, name);
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  run(
    [
      'req',
      ...newKeyArguments(options.keyType ?? 'rsa'),
      '-nodes',
      '-subj',
      `/CN=${commonName}`,
    ].concat(['-keyout', file('leaf-key.pem'), '-out', file('leaf.csr')]),
  );
  const extensions = `subjectAltName=${altNames.join(',')}\nbasicConstraints=CA:FALSE\n`;
  writeFileSync(file('leaf.ext'), extensions);
  run(
    ['x509', '-req', '-in', file('leaf.csr'), '-CA', root.certFile, '-CAkey', file('key.pem')]
      .concat(['-CAcreateserial', '-days', '1', '-extfile', file('leaf.ext')])
      .concat(['-out', file('leaf.pem')]),
  );
  const leaf = readFileSync(file('leaf.pem'));
  return {
    key: readFileSync(file('leaf-key.pem')),
    chain: Buffer.concat([leaf, root.cert]),
    leaf,
    root: root.cert,
    remove: root.remove,
  };
}
