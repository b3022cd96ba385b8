import { describe, expect, it } from 'vitest';
import { type Grammar, withSyntaxTree } from './parser.js';

describe('parser', () => {
  it('parses each grammar the detectors use', async () => {
    const samples: [Grammar, string][] = [
      ['javascript', 'crypto.generateKeyPairSync("rsa", {});'],
      ['java', 'class A { void f() { KeyPairGenerator.getInstance("RSA"); } }'],
      ['c-sharp', 'class A { void F() { var k = RSA.Create(2048); } }'],
      ['php', '<?php openssl_pkey_new(["private_key_bits" => 2048]);'],
    ];
    for (const [grammar, text] of samples) {
      const kind = await withSyntaxTree(grammar, text, (tree) => ({
        root: tree.rootNode.type,
        error: tree.rootNode.hasError,
      }));
      expect(kind.error, grammar).toBe(false);
    }
  });
});
