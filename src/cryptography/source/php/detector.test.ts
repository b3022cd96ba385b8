import { describe, expect, it } from 'vitest';
import type { SourceCryptoUse } from '../types.js';
import { phpDetector } from './detector.js';

type Expected = Partial<Omit<SourceCryptoUse, 'language'>>;

async function usesOf(source: string): Promise<Expected[]> {
  const report = await phpDetector.detect('app.php', `<?php\n${source}`);
  return report.uses.map(({ language: _language, ...use }) => use);
}

describe('phpDetector', () => {
  const cases: { scenario: string; source: string; expected: Expected[] }[] = [
    {
      scenario: 'openssl_pkey_new without options is RSA',
      source: '$k = openssl_pkey_new();',
      expected: [
        { line: 2, primitive: 'key-generation', algorithm: 'RSA', api: 'openssl_pkey_new' },
      ],
    },
    {
      scenario: 'bits from a class constant through self::',
      source:
        "class K { const BITS = 1024;\nfunction f() { return openssl_pkey_new(['private_key_bits' => self::BITS, 'private_key_type' => OPENSSL_KEYTYPE_RSA]); } }",
      expected: [{ line: 3, primitive: 'key-generation', algorithm: 'RSA', keySize: 1024 }],
    },
    {
      scenario: 'curve name alone means EC',
      source: "$k = OPENSSL_PKEY_NEW(['curve_name' => 'secp384r1']);",
      expected: [{ line: 2, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-384' }],
    },
    {
      scenario: 'options held in a variable, named argument',
      source:
        "$o = ['private_key_type' => OPENSSL_KEYTYPE_DSA];\n$k = openssl_pkey_new(options: $o);",
      expected: [{ line: 3, primitive: 'key-generation', algorithm: 'DSA' }],
    },
    {
      scenario: 'openssl_sign takes the family of a known key, else RSA',
      source:
        "$k = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);\nopenssl_sign($d, $s, $k);\nopenssl_sign($d, $s, $other);",
      expected: [
        { line: 2, primitive: 'key-generation', algorithm: 'ECDSA' },
        { line: 3, primitive: 'signature', algorithm: 'ECDSA' },
        { line: 4, primitive: 'signature', algorithm: 'RSA' },
      ],
    },
    {
      scenario: 'ECDH derivation with an EC key',
      source:
        "$k = openssl_pkey_new(['curve_name' => 'prime256v1']);\n$s = openssl_pkey_derive($peer, $k);",
      expected: [
        { line: 2, primitive: 'key-generation', algorithm: 'ECDSA' },
        { line: 3, primitive: 'key-agreement', algorithm: 'ECDH' },
      ],
    },
    {
      scenario: 'phpseclib3 through a use alias, Ed25519 curve',
      source: "use phpseclib3\\Crypt\\EC as E;\n$k = E::createKey('Ed25519');",
      expected: [{ line: 3, primitive: 'key-generation', algorithm: 'EdDSA', curve: 'Ed25519' }],
    },
    {
      scenario: 'php-jwt Key with an algorithm from a method',
      source:
        "use Firebase\\JWT\\Key;\nclass T { function a() { return 'RS512'; }\nfunction k($p) { return new Key($p, $this->a()); } }",
      expected: [{ line: 4, primitive: 'signature', algorithm: 'RSA' }],
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
      scenario: 'a comment naming the API',
      source: '// openssl_pkey_new()\n# RSA::createKey(1024)\n$x = 1;',
    },
    { scenario: 'a log line', source: 'error_log("openssl_pkey_new failed for RSA");' },
    {
      scenario: 'a config array',
      source: "return ['private_key_type' => 'rsa', 'alg' => 'RS256'];",
    },
    { scenario: 'an HS256 JWT', source: "use Firebase\\JWT\\JWT;\nJWT::encode($c, $s, 'HS256');" },
    { scenario: 'an own sign method', source: '$contract->sign("alice");' },
  ];
  for (const { scenario, source } of nothing) {
    it(`finds nothing in ${scenario}`, async () => {
      expect(await usesOf(source)).toEqual([]);
    });
  }

  it('records hashes, HMACs and ciphers as algorithms', async () => {
    const report = await phpDetector.detect(
      'a.php',
      "<?php\nhash('sha256', $x);\nhash_hmac('sha1', $x, $k);\nopenssl_encrypt($d, 'aes-128-gcm', $k);",
    );
    expect(report.uses).toEqual([]);
    expect(report.algorithms.map((a) => `${a.algorithm}/${a.kind}`)).toEqual([
      'SHA-256/hash',
      'HMAC-SHA1/mac',
      'AES-128-GCM/ae',
    ]);
  });

  it('prefilters case-insensitively, and survives garbage', async () => {
    expect(phpDetector.mayContain?.('<?php echo "hi";')).toBe(false);
    expect(phpDetector.mayContain?.('<?php OPENSSL_SIGN($a, $b, $c);')).toBe(true);
    const garbage = await phpDetector.detect(
      'g.php',
      '<?php openssl_pkey_new([[[ (( ?> <?= '.repeat(300),
    );
    expect(Array.isArray(garbage.uses)).toBe(true);
  });
});
