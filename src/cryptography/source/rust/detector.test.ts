import { describe, expect, it } from 'vitest';
import type { SourceCryptoUse } from '../types.js';
import { rustDetector } from './detector.js';

type Expected = Partial<Omit<SourceCryptoUse, 'language'>>;

async function usesOf(source: string): Promise<Expected[]> {
  const report = await rustDetector.detect('lib.rs', source);
  return report.uses.map(({ language: _language, ...use }) => use);
}

describe('rustDetector', () => {
  const cases: { scenario: string; source: string; expected: Expected[] }[] = [
    {
      scenario: 'rsa key size from a const item',
      source:
        'use rsa::RsaPrivateKey;\nconst BITS: usize = 1024;\nfn k() { RsaPrivateKey::new(&mut rng, BITS); }',
      expected: [
        {
          line: 3,
          primitive: 'key-generation',
          algorithm: 'RSA',
          keySize: 1024,
          api: 'RsaPrivateKey::new',
        },
      ],
    },
    {
      scenario: 'key size from an associated const through Self',
      source:
        'use rsa::RsaPrivateKey;\nimpl K { const B: usize = 3072;\nfn k(&self) { RsaPrivateKey::new(&mut r, Self::B); } }',
      expected: [{ line: 3, primitive: 'key-generation', algorithm: 'RSA', keySize: 3072 }],
    },
    {
      scenario: 'curve from the crate a use names',
      source: 'use k256::ecdsa::SigningKey;\nfn k() { let s = SigningKey::random(&mut OsRng); }',
      expected: [{ line: 2, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'secp256k1' }],
    },
    {
      scenario: 'ring algorithm static gives family and curve',
      source:
        'use ring::signature;\nfn k() { signature::EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P384_SHA384_FIXED_SIGNING, &rng); }',
      expected: [{ line: 2, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-384' }],
    },
    {
      scenario: 'method on a key typed through a struct field',
      source:
        'use rsa::RsaPublicKey;\nstruct S { k: RsaPublicKey }\nimpl S { fn e(&self) { self.k.encrypt(&mut r, p, d); } }',
      expected: [{ line: 3, primitive: 'encryption', algorithm: 'RSA' }],
    },
    {
      scenario: 'a use inside assert! arguments',
      source:
        'use ed25519_dalek::VerifyingKey;\nfn t(k: VerifyingKey) {\n  assert!(k.verify(m, &s).is_ok());\n}',
      expected: [{ line: 3, primitive: 'signature', algorithm: 'EdDSA' }],
    },
    {
      scenario: 'openssl EC group curve from a Nid',
      source:
        'use openssl::ec::{EcGroup, EcKey};\nuse openssl::nid::Nid;\nfn k() { let g = EcGroup::from_curve_name(Nid::X9_62_PRIME256V1).unwrap();\nEcKey::generate(&g); }',
      expected: [{ line: 4, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-256' }],
    },
    {
      scenario: 'jsonwebtoken algorithm on its own',
      source: 'use jsonwebtoken::Algorithm;\nfn a() -> Vec<Algorithm> { vec![Algorithm::PS256] }',
      expected: [{ line: 2, primitive: 'signature', algorithm: 'RSA' }],
    },
  ];

  for (const { scenario, source, expected } of cases) {
    it(scenario, async () => {
      const uses = await usesOf(source);
      expect(uses).toHaveLength(expected.length);
      expect(uses).toMatchObject(expected);
    });
  }

  const nothing: { scenario: string; source: string }[] = [
    {
      scenario: 'a doc comment naming the API',
      source: '/// RsaPrivateKey::new(&mut rng, 1024)\nfn f() {}',
    },
    { scenario: 'a log macro', source: 'fn f() { info!("rsa::RsaPrivateKey::new failed"); }' },
    { scenario: 'a field named for RSA', source: 'struct C { rsa_key_path: String }' },
    {
      scenario: 'an unimported SigningKey of the crate itself',
      source: 'fn f() { SigningKey::random().sign("x"); }',
    },
    {
      scenario: 'AES-GCM encrypt',
      source:
        'use aes_gcm::Aes256Gcm;\nfn f(k: &Key) { let c = Aes256Gcm::new(k); c.encrypt(n, d); }',
    },
    {
      scenario: 'HS256 JWT',
      source: 'use jsonwebtoken::{Algorithm, Header};\nfn f() { Header::new(Algorithm::HS256); }',
    },
  ];
  for (const { scenario, source } of nothing) {
    it(`finds nothing in ${scenario}`, async () => {
      expect(await usesOf(source)).toEqual([]);
    });
  }

  it('records hashes and AEADs as algorithms', async () => {
    const report = await rustDetector.detect(
      'lib.rs',
      'use sha2::{Digest, Sha256};\nuse chacha20poly1305::ChaCha20Poly1305;\nfn f() { Sha256::digest(b"x"); ChaCha20Poly1305::new(k); }',
    );
    expect(report.uses).toEqual([]);
    expect(report.algorithms.map((a) => a.algorithm)).toEqual(['SHA-256', 'ChaCha20-Poly1305']);
  });

  it('prefilters, and survives garbage', async () => {
    expect(rustDetector.mayContain?.('fn main() { let s = String::new(); }')).toBe(false);
    expect(rustDetector.mayContain?.('use ring::signature;')).toBe(true);
    const garbage = await rustDetector.detect(
      'g.rs',
      'use rsa::{{{ assert!( (( ]] \u0000'.repeat(300),
    );
    expect(Array.isArray(garbage.uses)).toBe(true);
  });
});
