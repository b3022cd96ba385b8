import { describe, expect, it } from 'vitest';
import {
  type DetectorCase,
  detectorCases,
} from '../../../../test/support/source-detector-cases.js';
import { javascriptDetector } from './detector.js';

const cases: DetectorCase[] = [
  {
    name: 'key size held in an object constant spread into the options',
    file: 'a.js',
    code: `const crypto = require('crypto');
const opts = { modulusLength: 1024 };
crypto.generateKeyPairSync('rsa', { ...opts, publicExponent: 3 });`,
    uses: [{ line: 3, primitive: 'key-generation', algorithm: 'RSA', keySize: 1024 }],
  },
  {
    name: 'named curve normalised to its usual name',
    file: 'a.js',
    code: `import { generateKeyPairSync } from 'node:crypto';
generateKeyPairSync('ec', { namedCurve: 'prime256v1' });`,
    uses: [{ line: 2, primitive: 'key-generation', algorithm: 'ECDSA', curve: 'P-256' }],
  },
  {
    name: 'modp group name gives the DH size',
    file: 'a.js',
    code: `import crypto from 'crypto';
crypto.getDiffieHellman('modp2');`,
    uses: [{ line: 2, primitive: 'key-agreement', algorithm: 'DH', keySize: 1024 }],
  },
  {
    name: 'createSign without a key type reads as assumed RSA',
    file: 'a.js',
    code: `const { createSign } = require('crypto');
const s = createSign('sha256');`,
    uses: [{ line: 2, primitive: 'signature', algorithm: 'RSA', assumed: true }],
  },
  {
    name: 'WebCrypto through destructured globalThis.crypto with modulusLength',
    file: 'a.js',
    code: `const { subtle } = globalThis.crypto;
subtle.generateKey({ name: 'RSA-PSS', modulusLength: 3072, hash: 'SHA-256' }, true, ['sign']);`,
    uses: [{ line: 2, primitive: 'key-generation', algorithm: 'RSA', keySize: 3072 }],
  },
  {
    name: 'TypeScript parameter property typed with an imported class',
    file: 'a.ts',
    code: `import { JwtService } from '@nestjs/jwt';
class A { constructor(private readonly jwt: JwtService) {}
  t() { return this.jwt.sign({}, { algorithm: 'ES384' }); } }`,
    uses: [{ line: 3, primitive: 'signature', algorithm: 'ECDSA', curve: 'P-384' }],
  },
  {
    name: 'hashes and ciphers are algorithms, not uses',
    file: 'a.js',
    code: `const crypto = require('crypto');
crypto.createHash('sha1');
crypto.createCipheriv('aes-128-cbc', k, iv);
crypto.createHmac('sha512', k);`,
    uses: [],
    algorithms: ['SHA-1', 'AES-128-CBC', 'HMAC-SHA-512'],
  },
  {
    name: 'a local generateKeyPair function is not crypto',
    file: 'a.js',
    code: `function generateKeyPair() { return [1, 2]; }
generateKeyPair('rsa');`,
    uses: [],
  },
  {
    name: 'a jsonwebtoken HS256 token is a MAC',
    file: 'a.js',
    code: `const jwt = require('jsonwebtoken');
jwt.sign({}, 'secret', { algorithm: 'HS256' });`,
    uses: [],
    algorithms: ['HMAC-SHA256'],
  },
  {
    name: 'identifiers named like Object.prototype members do not break lookups',
    file: 'a.js',
    code: `constructor.generateKeyPairSync('rsa'); toString(); __proto__.sign(hasOwnProperty);
const crypto = require('crypto'); crypto[constructor]('rsa');`,
    uses: [],
  },
];

describe('javascriptDetector', () => {
  detectorCases(javascriptDetector, cases);

  it('reports TypeScript files as typescript and JavaScript files as javascript', async () => {
    const code = `import { createECDH } from 'crypto'; createECDH('secp384r1');`;
    const ts = await javascriptDetector.detect('x.mts', code);
    const js = await javascriptDetector.detect('x.cjs', code);
    expect(ts.uses[0]).toMatchObject({ language: 'typescript', curve: 'P-384', api: 'createECDH' });
    expect(js.uses[0]?.language).toBe('javascript');
  });

  it('returns nothing, without throwing, for garbage', async () => {
    const garbage = `}{ crypto.generateKeyPairSync(( 'rsa' ,,, \u0000 \uffff ${'('.repeat(500)}`;
    await expect(javascriptDetector.detect('g.js', garbage)).resolves.toBeDefined();
  });

  it('prefilters files without any token a rule starts from', () => {
    expect(javascriptDetector.mayContain?.('export const sum = (a, b) => a + b;')).toBe(false);
    expect(
      javascriptDetector.mayContain?.("require('node:crypto').generateKeyPairSync('rsa')"),
    ).toBe(true);
  });

  it('prefilters files that import a crypto module only to make ids, not those that hash', async () => {
    const ids =
      "import { randomBytes, randomUUID } from 'node:crypto';\nexport const id = () => randomUUID() + randomBytes(4).toString('hex');";
    expect(javascriptDetector.mayContain?.(ids)).toBe(false);
    // A hash is no finding, but the CBOM records it: the file must be parsed.
    const hashing =
      "import { createHash, randomUUID } from 'node:crypto';\nconst id = randomUUID();\nexport const digest = (s) => createHash('sha256').update(s).digest('hex');";
    expect(javascriptDetector.mayContain?.(hashing)).toBe(true);
    const report = await javascriptDetector.detect('src/digest.js', hashing);
    expect(report.uses).toEqual([]);
    expect(report.algorithms).toEqual([expect.objectContaining({ algorithm: 'SHA-256', line: 3 })]);
  });

  it("lets a module's API names through only beside that module", () => {
    // `ECDSA` is a jsrsasign constructor (KJUR.crypto.ECDSA): beside node:crypto alone it is a string.
    const label =
      "import { randomUUID } from 'node:crypto';\nexport const alg = { name: 'ECDSA', id: randomUUID() };";
    expect(javascriptDetector.mayContain?.(label)).toBe(false);
    const jsrsasign =
      "const { KJUR } = require('jsrsasign');\nconst ec = new KJUR.crypto.ECDSA({ curve: 'secp256r1' });";
    expect(javascriptDetector.mayContain?.(jsrsasign)).toBe(true);
    const global = "const ec = new KJUR.crypto.ECDSA({ curve: 'secp256r1' });";
    expect(javascriptDetector.mayContain?.(global)).toBe(true);
    const signing =
      "import { sign } from 'node:crypto';\nexport const f = (k, d) => sign(null, d, k);";
    expect(javascriptDetector.mayContain?.(signing)).toBe(true);
  });
});
