import { describe, expect, it } from 'vitest';
import type { SourceCryptoUse } from '../types.js';
import { csharpDetector } from './detector.js';

type Expected = Partial<Omit<SourceCryptoUse, 'language'>>;

async function usesOf(source: string): Promise<Expected[]> {
  const report = await csharpDetector.detect('Example.cs', source);
  return report.uses.map(({ language: _language, ...use }) => use);
}

const inClass = (body: string) =>
  `using System.Security.Cryptography;\nclass Example {\n${body}\n}\n`;

describe('csharpDetector', () => {
  const cases: { scenario: string; source: string; expected: Expected[] }[] = [
    {
      scenario: 'RSA.Create with a literal size',
      source: inClass('RSA K() => RSA.Create(3072);'),
      expected: [
        {
          line: 3,
          primitive: 'key-generation',
          algorithm: 'RSA',
          keySize: 3072,
          api: 'RSA.Create',
        },
      ],
    },
    {
      scenario: 'key size from a const field declared after the method',
      source: inClass('RSA K() => RSA.Create(Bits);\nprivate const int Bits = 1024;'),
      expected: [{ line: 3, primitive: 'key-generation', algorithm: 'RSA', keySize: 1024 }],
    },
    {
      scenario: 'key size folded from arithmetic on a constant',
      source: inClass('const int Base = 1024;\nRSA K() => new RSACryptoServiceProvider(Base * 2);'),
      expected: [{ line: 4, primitive: 'key-generation', algorithm: 'RSA', keySize: 2048 }],
    },
    {
      scenario: 'named curve member gives the curve',
      source: inClass('ECDsa K() => ECDsa.Create(ECCurve.NamedCurves.nistP384);'),
      expected: [{ line: 3, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-384' }],
    },
    {
      scenario: 'curve by friendly name held in a constant',
      source: inClass(
        'const string C = "secp256k1";\nECDsa K() => ECDsa.Create(ECCurve.CreateFromFriendlyName(C));',
      ),
      expected: [{ line: 4, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'secp256k1' }],
    },
    {
      scenario: 'ECDiffieHellman keeps its family with a named curve',
      source: inClass('var e = ECDiffieHellman.Create(ECCurve.NamedCurves.nistP256);'),
      expected: [{ line: 3, primitive: 'key-agreement', algorithm: 'ECDH', curve: 'P-256' }],
    },
    {
      scenario: 'KeySize assignment on a typed local',
      source: inClass('void F() {\nvar rsa = new RSACng();\nrsa.KeySize = 1024; }'),
      expected: [
        { line: 4, primitive: 'key-generation', algorithm: 'RSA', api: 'RSACng' },
        {
          line: 5,
          primitive: 'key-generation',
          algorithm: 'RSA',
          keySize: 1024,
          api: 'rsa.KeySize',
        },
      ],
    },
    {
      scenario: 'using alias to the RSA type',
      source:
        'using R = System.Security.Cryptography.RSA;\nclass A { object K() => R.Create(2048); }',
      expected: [{ line: 2, primitive: 'key-generation', algorithm: 'RSA', keySize: 2048 }],
    },
    {
      scenario: 'encryption on an unknown receiver with an RSA padding',
      source: inClass(
        'byte[] E(dynamic k, byte[] d) => k.Encrypt(d, RSAEncryptionPadding.OaepSHA256);',
      ),
      expected: [{ line: 3, primitive: 'encryption', algorithm: 'RSA' }],
    },
    {
      scenario: 'signer by scheme name held in a static field',
      source:
        'using Org.BouncyCastle.Security;\nclass A { static readonly string S = "SHA384withECDSA";\nobject F() => SignerUtilities.GetSigner(S); }',
      expected: [{ line: 3, primitive: 'signature', algorithm: 'ECDSA' }],
    },
    {
      scenario: 'JWT algorithm constant read by SigningCredentials is one use',
      source:
        'using Microsoft.IdentityModel.Tokens;\nclass A { object F(SecurityKey k) => new SigningCredentials(k, SecurityAlgorithms.EcdsaSha512); }',
      expected: [{ line: 2, primitive: 'signature', algorithm: 'ECDSA', curve: 'P-521' }],
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
    { scenario: 'a comment naming the API', source: inClass('// RSA.Create(1024)\nint X = 1;') },
    { scenario: 'a log message', source: inClass('void F() { Log("RSA.Create(2048) done"); }') },
    {
      scenario: 'a variable named for RSA',
      source: inClass('string rsaKeyPath = "keys/rsa.pem";'),
    },
    {
      scenario: 'AES key size',
      source: inClass('void F() { var aes = Aes.Create(); aes.KeySize = 256; }'),
    },
    {
      scenario: 'HMAC JWT credentials',
      source:
        'using Microsoft.IdentityModel.Tokens;\nclass A { object F(SecurityKey k) => new SigningCredentials(k, SecurityAlgorithms.HmacSha256); }',
    },
    {
      scenario: 'own SignData method',
      source: inClass('Signer s; byte[] F(byte[] d) => s.SignData(d);'),
    },
  ];
  for (const { scenario, source } of nothing) {
    it(`finds nothing in ${scenario}`, async () => {
      expect(await usesOf(source)).toEqual([]);
    });
  }

  it('records hashes, MACs and ciphers as algorithms, not uses', async () => {
    const report = await csharpDetector.detect(
      'A.cs',
      inClass('void F() { SHA256.Create(); new HMACSHA512(k); Aes.Create(); new AesGcm(k, 16); }'),
    );
    expect(report.uses).toEqual([]);
    expect(report.algorithms.map((a) => `${a.algorithm}/${a.kind}`)).toEqual([
      'SHA-256/hash',
      'HMAC-SHA512/mac',
      'AES/block-cipher',
      'AES-GCM/ae',
    ]);
  });

  it('prefilters files without crypto words and survives garbage', async () => {
    expect(csharpDetector.mayContain?.('class A { int X; }')).toBe(false);
    expect(csharpDetector.mayContain?.('var k = RSA.Create();')).toBe(true);
    const garbage = await csharpDetector.detect(
      'G.cs',
      'RSA.Create((((( {{{ "\u0000 ]]]'.repeat(200),
    );
    expect(Array.isArray(garbage.uses)).toBe(true);
    expect(await csharpDetector.detect('Big.cs', `// RSA\n${'x'.repeat(2_100_000)}`)).toEqual({
      uses: [],
      algorithms: [],
    });
  });
});
