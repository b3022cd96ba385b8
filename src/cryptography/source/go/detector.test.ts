import { describe, expect, it } from 'vitest';
import {
  type DetectorCase,
  detectorCases,
} from '../../../../test/support/source-detector-cases.js';
import { goDetector } from './detector.js';

const cases: DetectorCase[] = [
  {
    name: 'key size from a grouped const',
    file: 'a.go',
    code: `package a
import ("crypto/rand"; "crypto/rsa")
const (
	keyBits = 4096
)
func k() { rsa.GenerateKey(rand.Reader, keyBits) }`,
    uses: [{ line: 6, primitive: 'key-generation', algorithm: 'RSA', keySize: 4096 }],
  },
  {
    name: 'an aliased import of crypto/ecdsa with the curve call as argument',
    file: 'a.go',
    code: `package a
import (e "crypto/ecdsa"; "crypto/elliptic"; "crypto/rand")
func k() { e.GenerateKey(elliptic.P521(), rand.Reader) }`,
    uses: [{ line: 3, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-521' }],
  },
  {
    name: 'DSA parameter sizes name the key size',
    file: 'a.go',
    code: `package a
import ("crypto/dsa"; "crypto/rand")
func k(p *dsa.Parameters) { dsa.GenerateParameters(p, rand.Reader, dsa.L2048N256) }`,
    uses: [{ line: 3, primitive: 'key-generation', algorithm: 'DSA', keySize: 2048 }],
  },
  {
    name: 'golang-jwt constants count where they are referenced',
    file: 'a.go',
    code: `package a
import "github.com/golang-jwt/jwt/v5"
var m = jwt.SigningMethodPS384
var h = jwt.SigningMethodHS256`,
    uses: [{ line: 3, primitive: 'signature', algorithm: 'RSA' }],
    algorithms: ['HMAC-SHA256'],
  },
  {
    name: 'x/crypto/ed25519 is the same package as crypto/ed25519',
    file: 'a.go',
    code: `package a
import "golang.org/x/crypto/ed25519"
func s(k ed25519.PrivateKey, m []byte) []byte { return ed25519.Sign(k, m) }`,
    uses: [{ line: 3, primitive: 'signature', algorithm: 'EdDSA', curve: 'Ed25519' }],
  },
  {
    name: 'hashes, HMAC and AES-GCM are algorithms only',
    file: 'a.go',
    code: `package a
import ("crypto/aes"; "crypto/cipher"; "crypto/hmac"; "crypto/sha512")
func f(k []byte) {
	b, _ := aes.NewCipher(k)
	cipher.NewGCM(b)
	hmac.New(sha512.New384, k)
}`,
    uses: [],
    algorithms: ['AES', 'AES-GCM', 'HMAC-SHA-384'],
  },
  {
    name: 'a package named rsa that is not crypto/rsa is not crypto',
    file: 'a.go',
    code: `package a
import "github.com/acme/rsa"
func f() { rsa.GenerateKey(nil, 2048) }`,
    uses: [],
  },
];

describe('goDetector', () => {
  detectorCases(goDetector, cases);

  it('returns nothing, without throwing, for garbage', async () => {
    const garbage = `package ( import "crypto/rsa" func { rsa.GenerateKey( \u0000 ${'{'.repeat(400)}`;
    await expect(goDetector.detect('g.go', garbage)).resolves.toBeDefined();
  });

  it('prefilters files that import no crypto package', () => {
    expect(goDetector.mayContain?.('package a\nimport "fmt"\nfunc f() { fmt.Println() }')).toBe(
      false,
    );
    expect(goDetector.mayContain?.('import "crypto/ecdh"')).toBe(true);
  });
});
