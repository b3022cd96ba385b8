import { describe, expect, it } from 'vitest';
import type { SourceCryptoUse } from '../types.js';
import { rubyDetector } from './detector.js';

type Expected = Partial<Omit<SourceCryptoUse, 'language'>>;

async function usesOf(source: string): Promise<Expected[]> {
  const report = await rubyDetector.detect('app.rb', source);
  return report.uses.map(({ language: _language, ...use }) => use);
}

describe('rubyDetector', () => {
  const cases: { scenario: string; source: string; expected: Expected[] }[] = [
    {
      scenario: 'RSA.new with a size is generation',
      source: 'k = OpenSSL::PKey::RSA.new(3072)',
      expected: [
        {
          line: 1,
          primitive: 'key-generation',
          algorithm: 'RSA',
          keySize: 3072,
          api: 'OpenSSL::PKey::RSA.new',
        },
      ],
    },
    {
      scenario: 'RSA.new with a PEM is key material',
      source: 'k = OpenSSL::PKey::RSA.new(File.read("k.pem"))',
      expected: [{ line: 1, primitive: 'key-material', algorithm: 'RSA' }],
    },
    {
      scenario: 'curve from a frozen constant',
      source: "ALG = 'secp384r1'.freeze\nOpenSSL::PKey::EC.generate(ALG)",
      expected: [{ line: 2, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-384' }],
    },
    {
      scenario: 'size from a module constant read through its namespace',
      source: 'module Cfg\n  BITS = 1024\nend\nOpenSSL::PKey::RSA.generate(Cfg::BITS)',
      expected: [{ line: 4, primitive: 'key-generation', algorithm: 'RSA', keySize: 1024 }],
    },
    {
      scenario: 'generate_key with keyword options',
      source: "OpenSSL::PKey.generate_key('RSA', rsa_keygen_bits: 4096)",
      expected: [{ line: 1, primitive: 'key-generation', algorithm: 'RSA', keySize: 4096 }],
    },
    {
      scenario: 'a parameter bound to the argument of a call in the file',
      source: "def s(k)\n  k.sign('SHA256', 'x')\nend\ns(OpenSSL::PKey::EC.generate('prime256v1'))",
      expected: [
        { line: 2, primitive: 'signature', algorithm: 'ECDSA' },
        { line: 4, primitive: 'key-generation', algorithm: 'ECDSA' },
      ],
    },
    {
      scenario: 'JWT algorithm in the decode options',
      source: "JWT.decode(t, k, true, { algorithm: 'ES384' })",
      expected: [{ line: 1, primitive: 'signature', algorithm: 'ECDSA', curve: 'P-384' }],
    },
    {
      scenario: 'public_encrypt on an unknown receiver',
      source: 'def seal(key, data) = key.public_encrypt(data)',
      expected: [{ line: 1, primitive: 'encryption', algorithm: 'RSA' }],
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
    { scenario: 'a comment naming the API', source: '# OpenSSL::PKey::RSA.new(1024)\nx = 1' },
    { scenario: 'a log line', source: 'logger.info("OpenSSL::PKey::RSA.new(2048) rotated")' },
    { scenario: 'an HS256 JWT', source: "JWT.encode(p, s, 'HS256')" },
    { scenario: 'a sign method of a model', source: 'contract.sign(user)' },
    { scenario: 'a type check', source: 'k.is_a?(OpenSSL::PKey::RSA)' },
  ];
  for (const { scenario, source } of nothing) {
    it(`finds nothing in ${scenario}`, async () => {
      expect(await usesOf(source)).toEqual([]);
    });
  }

  it('records digests, HMACs and ciphers as algorithms', async () => {
    const report = await rubyDetector.detect(
      'a.rb',
      "Digest::SHA256.hexdigest(x)\nOpenSSL::HMAC.hexdigest('SHA512', k, d)\nOpenSSL::Cipher.new('aes-128-cbc')",
    );
    expect(report.uses).toEqual([]);
    expect(report.algorithms.map((a) => `${a.algorithm}/${a.kind}`)).toEqual([
      'SHA-256/hash',
      'HMAC-SHA512/mac',
      'AES-128-CBC/block-cipher',
    ]);
  });

  it('prefilters, and survives garbage', async () => {
    expect(rubyDetector.mayContain?.('puts "hello"')).toBe(false);
    expect(rubyDetector.mayContain?.('OpenSSL::PKey::RSA.new(2048)')).toBe(true);
    const garbage = await rubyDetector.detect(
      'g.rb',
      'OpenSSL::PKey::RSA.new(( def end end {{ '.repeat(300),
    );
    expect(Array.isArray(garbage.uses)).toBe(true);
  });
});
