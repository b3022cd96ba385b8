import { describe, expect, it } from 'vitest';
import { csharpDetector } from './csharp/detector.js';
import { phpDetector } from './php/detector.js';
import { rubyDetector } from './ruby/detector.js';
import { rustDetector } from './rust/detector.js';

/** Inputs built to be slow or deep: each detector answers quickly and does not throw. */
describe('C#, Rust, Ruby and PHP detectors on hostile input', () => {
  const chain = (line: (i: number) => string, count: number) =>
    Array.from({ length: count }, (_, i) => line(i + 1)).join('\n');

  const cases = [
    {
      scenario: 'C#: constants doubling along a long chain',
      detector: csharpDetector,
      finds: 'key-generation RSA',
      text: `using System.Security.Cryptography;\nclass A {\nconst int A0 = 1;\n${chain((i) => `const int A${i} = A${i - 1} + A${i - 1};`, 3000)}\nvoid F() { ${'RSA.Create(A3000); '.repeat(300)} }\n}`,
    },
    {
      scenario: 'Rust: deeply nested parentheses around a key size',
      detector: rustDetector,
      finds: 'key-generation RSA',
      text: `use rsa::RsaPrivateKey;\nfn f() { RsaPrivateKey::new(&mut r, ${'('.repeat(3000)}2048${')'.repeat(3000)}); }`,
    },
    {
      scenario: 'Ruby: names bound to each other in a cycle',
      detector: rubyDetector,
      finds: 'key-material RSA',
      text: `a = b\nb = c\nc = a\n${'OpenSSL::PKey::RSA.new(a)\n'.repeat(2000)}`,
    },
    {
      scenario: 'PHP: a long chain of member calls',
      detector: phpDetector,
      finds: 'key-generation RSA',
      text: `<?php\n$k = openssl_pkey_new()${'->x()'.repeat(5000)};\nopenssl_sign($d, $s, $k);`,
    },
  ];

  for (const { scenario, detector, text, finds } of cases) {
    it(scenario, async () => {
      const started = performance.now();
      const report = await detector.detect('hostile', text);
      expect(report.uses.map((use) => `${use.primitive} ${use.algorithm}`)).toContain(finds);
      expect(performance.now() - started).toBeLessThan(20_000);
    });
  }
});
