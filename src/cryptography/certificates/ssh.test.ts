import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeOpenSshPrivateKey, describeSshPublicBlob, findSshPublicKeys } from './ssh.js';

function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An ssh-ed25519 public key blob built from a Node key (RFC 8709 layout). */
function ed25519Blob(): Buffer {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  return Buffer.concat([sshString('ssh-ed25519'), sshString(raw)]);
}

describe('findSshPublicKeys', () => {
  const blob = ed25519Blob().toString('base64');
  const table: [string, string, { line: number; label?: string }[]][] = [
    ['pub-file-line', `ssh-ed25519 ${blob} me@laptop\n`, [{ line: 1, label: 'me@laptop' }]],
    [
      'authorized-keys-options',
      `# keys\nfrom="10.0.0.0/8",no-pty ssh-ed25519 ${blob}\n`,
      [{ line: 2 }],
    ],
    [
      'yaml-list',
      `users:\n  - name: ops\n    ssh_authorized_keys:\n      - ssh-ed25519 ${blob} ops\n`,
      [{ line: 4, label: 'ops' }],
    ],
    ['json-string', `{"key": "ssh-ed25519 ${blob}"}`, [{ line: 1 }]],
    ['type-inside-a-word-is-not-a-key', `xssh-ed25519 ${blob}\n`, []],
    ['blob-of-another-type', `ssh-rsa ${blob}\n`, []],
    ['code-that-names-the-type', "const prefix = 'ssh-ed25519 ' + encoded;\n", []],
  ];
  it.each(table)('%s', (_scenario, text, expected) => {
    const keys = findSshPublicKeys(text, 10);
    expect(keys.map(({ line, label }) => ({ line, ...(label && { label }) }))).toEqual(expected);
    for (const key of keys) expect(key).toMatchObject({ algorithm: 'EdDSA', curve: 'Ed25519' });
  });
});

describe('describeSshPublicBlob', () => {
  it('rejects a blob cut short', () => {
    const blob = ed25519Blob();
    expect(describeSshPublicBlob(blob.subarray(0, blob.length - 1))).toBeUndefined();
  });
  it('rejects an rsa blob whose length fields run past the end', () => {
    const blob = Buffer.concat([
      sshString('ssh-rsa'),
      Buffer.from([0, 0, 0, 1, 3, 0x7f, 0xff, 0xff, 0xff, 1]),
    ]);
    expect(describeSshPublicBlob(blob)).toBeUndefined();
  });
});

describe('describeOpenSshPrivateKey', () => {
  it('reads the public half and the cipher, never the private section', () => {
    const body = Buffer.concat([
      Buffer.from('openssh-key-v1\0', 'latin1'),
      sshString('aes256-ctr'),
      sshString('bcrypt'),
      sshString(Buffer.alloc(24)),
      Buffer.from([0, 0, 0, 1]),
      sshString(ed25519Blob()),
      sshString(Buffer.alloc(0)),
    ]);
    expect(describeOpenSshPrivateKey(body)).toEqual({
      keys: [{ algorithm: 'EdDSA', curve: 'Ed25519' }],
      encrypted: true,
    });
  });
  it('refuses a body without the magic', () => {
    expect(describeOpenSshPrivateKey(Buffer.from('openssh-key-v2\0'))).toBeUndefined();
  });
});
