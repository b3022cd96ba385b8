/**
 * Which repository files the certificate and key reader looks at. By name: the extensions and
 * file names certificates, keys and keystores go by. By content: any other text file that holds
 * PEM armour or an OpenSSH public key (a certificate pasted into configuration or source code),
 * found with a handful of substring searches over the bytes the scanner already has.
 *
 * known_hosts is left out on purpose: it lists the host keys of servers someone connected to,
 * not key material the repository owns, and would fill the inventory with other parties' keys.
 */

/** Files larger than this are not read: no certificate bundle or keystore in a repository is. */
export const MAX_CRYPTO_FILE_BYTES = 1024 * 1024;

const EXTENSIONS = new Set([
  'pem',
  'crt',
  'cer',
  'cert',
  'der',
  'p7b',
  'p7c',
  'p12',
  'pfx',
  'jks',
  'jceks',
  'keystore',
  'truststore',
  'pub',
  'key',
  'p8',
  'pk8',
]);

const NAMES = new Set([
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  'authorized_keys',
  'authorized_keys2',
  'cacerts',
]);

const EXCLUDED_NAMES = new Set(['known_hosts', 'known_hosts2', 'ssh_known_hosts']);

function baseName(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(slash + 1).toLowerCase();
}

/** SSH host keys (`ssh_host_ed25519_key`) are named by their pattern, not a fixed name. */
function isSshHostKey(name: string): boolean {
  return name.startsWith('ssh_host_') && name.endsWith('_key');
}

/** True for a file the reader should open because of its name, within the size cap. */
export function isCandidateCryptoFile(path: string, size: number): boolean {
  if (size <= 0 || size > MAX_CRYPTO_FILE_BYTES) return false;
  return isCandidateCryptoName(path);
}

/**
 * The name half of isCandidateCryptoFile: a scan decides by name first and reads the size (from
 * the one open of the file) only for the few files named like keys and certificates.
 */
export function isCandidateCryptoName(path: string): boolean {
  const name = baseName(path);
  if (EXCLUDED_NAMES.has(name)) return false;
  if (NAMES.has(name) || isSshHostKey(name)) return true;
  const dot = name.lastIndexOf('.');
  return dot > 0 && EXTENSIONS.has(name.slice(dot + 1));
}

/**
 * What a sniffed file must contain. `ssh-… AAAA` rather than the bare type name: every OpenSSH
 * key blob begins with AAAA (the length of its type string), and code that only names a key type
 * (`'ssh-rsa '`) then costs nothing.
 */
const MARKERS = [
  '-----BEGIN ',
  'ssh-rsa AAAA',
  'ssh-dss AAAA',
  'ssh-ed25519 AAAA',
  'ssh-ed448 AAAA',
  'ecdsa-sha2-nistp',
  'ssh-ed25519@openssh.com AAAA',
].map((marker) => Buffer.from(marker, 'latin1'));

/**
 * True when a file not chosen by name still deserves reading: it holds PEM armour or an OpenSSH
 * public key. A few native substring searches over at most MAX_CRYPTO_FILE_BYTES, so cheap
 * enough to run on every text file a scan reads.
 */
export function sniffCryptoContent(path: string, bytes: Buffer): boolean {
  if (bytes.length === 0 || bytes.length > MAX_CRYPTO_FILE_BYTES) return false;
  if (EXCLUDED_NAMES.has(baseName(path))) return false;
  return MARKERS.some((marker) => bytes.includes(marker));
}
