import { describe, expect, it } from 'vitest';
import {
  type DetectorCase,
  detectorCases,
} from '../../../../test/support/source-detector-cases.js';
import { javaDetector } from './detector.js';

const cases: DetectorCase[] = [
  {
    name: 'initialize binds the key size to the generator of a static final name',
    file: 'A.java',
    code: `import java.security.KeyPairGenerator;
class A {
  static final String ALG = "RSA";
  void f() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance(ALG);
    g.initialize(1024);
  }
}`,
    uses: [{ line: 5, primitive: 'key-generation', algorithm: 'RSA', keySize: 1024 }],
  },
  {
    name: 'a curve spec passed to initialize is the generator curve, not a finding of its own',
    file: 'A.java',
    code: `import java.security.*;
import java.security.spec.ECGenParameterSpec;
class A { void f() throws Exception {
  KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
  g.initialize(new ECGenParameterSpec("prime256v1"));
} }`,
    uses: [{ line: 4, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-256' }],
  },
  {
    name: 'XDH is assumed to be X25519',
    file: 'A.java',
    code: `import javax.crypto.KeyAgreement;
class A { Object f() throws Exception { return KeyAgreement.getInstance("XDH"); } }`,
    uses: [{ line: 2, primitive: 'key-agreement', algorithm: 'X25519', assumed: true }],
  },
  {
    name: 'BouncyCastle RSA strength from the generation parameters',
    file: 'A.java',
    code: `import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;
class A { void f(java.security.SecureRandom r) {
  RSAKeyPairGenerator g = new RSAKeyPairGenerator();
  g.init(new RSAKeyGenerationParameters(java.math.BigInteger.valueOf(65537), r, 3072, 80));
} }`,
    uses: [{ line: 4, primitive: 'key-generation', algorithm: 'RSA', keySize: 3072 }],
  },
  {
    name: 'a static import of a JJWT constant',
    file: 'A.java',
    code: `import static io.jsonwebtoken.SignatureAlgorithm.ES384;
import io.jsonwebtoken.Jwts;
class A { String f(java.security.Key k) { return Jwts.builder().signWith(k, ES384).compact(); } }`,
    uses: [{ line: 3, primitive: 'signature', algorithm: 'ECDSA', curve: 'P-384' }],
  },
  {
    name: 'ciphers, digests and MACs are algorithms only',
    file: 'A.java',
    code: `import javax.crypto.*;
import java.security.MessageDigest;
class A { void f() throws Exception {
  Cipher.getInstance("AES/CBC/PKCS5Padding");
  MessageDigest.getInstance("SHA-512");
  Mac.getInstance("HmacSHA256");
} }`,
    uses: [],
    algorithms: ['AES-CBC', 'SHA-512', 'HMAC-SHA-256'],
  },
  {
    name: 'a Signature class imported from another package is not JCA',
    file: 'A.java',
    code: `import com.acme.docs.Signature;
class A { Object f() { return Signature.getInstance("SHA256withRSA"); } }`,
    uses: [],
  },
];

describe('javaDetector', () => {
  detectorCases(javaDetector, cases);

  it('returns nothing, without throwing, for garbage', async () => {
    const garbage = `class { import java.security.*; KeyPairGenerator.getInstance( \u0000 ${'('.repeat(400)}`;
    await expect(javaDetector.detect('G.java', garbage)).resolves.toBeDefined();
  });

  it('prefilters files that import no crypto package', () => {
    expect(javaDetector.mayContain?.('import java.util.List; class A {}')).toBe(false);
    expect(javaDetector.mayContain?.('import javax.crypto.Cipher;')).toBe(true);
  });
});

describe('javaDetector on hostile input', () => {
  it('does not build huge strings from doubling concatenations', async () => {
    const steps = Array.from(
      { length: 40 },
      (_, i) => `static final String A${i + 1} = A${i} + A${i};`,
    );
    const code = `import java.security.*;
class A { static final String A0 = "RSA"; ${steps.join(' ')}
  Object f() throws Exception { return KeyPairGenerator.getInstance(A40); } }`;
    const report = await javaDetector.detect('A.java', code);
    expect(report.uses).toEqual([]);
  });
});
