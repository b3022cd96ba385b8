import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/**
 * A certificate for `commonName` that also covers `altNames` (`IP:127.0.0.2`, `DNS:x.test`),
 * valid for a day, written to a new directory below `parent` (default: the temporary directory).
 */
export function selfSignedCertificate(
  commonName: string,
  altNames: string[],
  parent = tmpdir(),
): SelfSignedCertificate {
  const dir = mkdtempSync(join(parent, 'driftwatch-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${commonName}`]
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
