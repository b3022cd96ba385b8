import { describe, expect, it } from 'vitest';
import {
  type DetectorCase,
  detectorCases,
} from '../../../../test/support/source-detector-cases.js';
import { pythonDetector } from './detector.js';

const cases: DetectorCase[] = [
  {
    name: 'key size from a class attribute read through self',
    file: 'a.py',
    code: `from cryptography.hazmat.primitives.asymmetric import rsa
class K:
    BITS = 1024
    def make(self):
        return rsa.generate_private_key(public_exponent=65537, key_size=self.BITS)`,
    uses: [{ line: 5, primitive: 'key-generation', algorithm: 'RSA', keySize: 1024 }],
  },
  {
    name: 'curve held in a module constant, via an aliased import',
    file: 'a.py',
    code: `from cryptography.hazmat.primitives.asymmetric import ec as curves
ALG = curves.SECP256R1()
key = curves.generate_private_key(ALG)`,
    uses: [{ line: 3, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-256' }],
  },
  {
    name: 'a parameter default gives the size',
    file: 'a.py',
    code: `from Crypto.PublicKey import RSA
def new_key(bits=4096):
    return RSA.generate(bits)`,
    uses: [{ line: 3, primitive: 'key-generation', algorithm: 'RSA', keySize: 4096 }],
  },
  {
    name: 'an environment default is the size the code falls back to',
    file: 'a.py',
    code: `import os, paramiko
paramiko.RSAKey.generate(int(os.getenv("BITS", "3072")))`,
    uses: [{ line: 2, primitive: 'key-generation', algorithm: 'RSA', keySize: 3072 }],
  },
  {
    name: 'ecdsa SigningKey.generate without a curve uses NIST192p',
    file: 'a.py',
    code: `import ecdsa
ecdsa.SigningKey.generate()`,
    uses: [{ line: 2, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-192' }],
  },
  {
    name: 'DSS with a key of unknown origin is assumed ECDSA',
    file: 'a.py',
    code: `from Crypto.Signature import DSS
DSS.new(load_key(), 'fips-186-3')`,
    uses: [{ line: 2, primitive: 'signature', algorithm: 'ECDSA', assumed: true }],
  },
  {
    name: 'PyJWT algorithms list gives one use per family',
    file: 'a.py',
    code: `import jwt
jwt.decode(t, k, algorithms=["RS256", "ES512", "HS256"])`,
    uses: [
      { line: 2, primitive: 'signature', algorithm: 'RSA' },
      { line: 2, primitive: 'signature', algorithm: 'ECDSA', curve: 'P-521' },
    ],
    algorithms: ['HMAC-SHA256'],
  },
  {
    name: 'hashes and symmetric ciphers are algorithms only',
    file: 'a.py',
    code: `import hashlib
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
hashlib.sha1(b"x")
Cipher(algorithms.AES(k), modes.GCM(iv))`,
    uses: [],
    algorithms: ['SHA-1', 'AES-GCM'],
  },
  {
    name: 'a sign method of an unrelated object is not crypto',
    file: 'a.py',
    code: `envelope.sign(user)
rsa = {"name": "Regional Sales Area"}
rsa.get("name")`,
    uses: [],
  },
];

describe('pythonDetector', () => {
  detectorCases(pythonDetector, cases);

  it('returns nothing, without throwing, for garbage', async () => {
    const garbage = `def (((: rsa.generate_private_key(key_size= \u0000 ${'['.repeat(400)}`;
    await expect(pythonDetector.detect('g.py', garbage)).resolves.toBeDefined();
  });

  it('prefilters files that import no crypto module', () => {
    expect(pythonDetector.mayContain?.('import os\nprint(os.getcwd())')).toBe(false);
    expect(pythonDetector.mayContain?.('from Crypto.PublicKey import RSA')).toBe(true);
  });
});
