import { describe, expect, test } from 'vitest';
import { cycloneDxValidator, schemaErrors } from '../../test/support/sbom-schemas';
import type {
  CbomAlgorithmInput,
  CbomCertificateInput,
  CbomComponent,
  CbomDocument,
  CbomFindingInput,
  CbomInput,
} from './cbom-write';
import { writeCbom } from './cbom-write';

const finding = (
  partial: Partial<CbomFindingInput> & Pick<CbomFindingInput, 'findingId' | 'primitive'>,
): CbomFindingInput => ({
  file: null,
  line: null,
  algorithm: 'RSA',
  curve: null,
  keySize: null,
  classification: 'disallowed-2035',
  api: null,
  purl: null,
  snippet: null,
  ...partial,
});

const LEGACY_FINGERPRINT = 'a1'.repeat(32);
const PQ_FINGERPRINT = 'b2'.repeat(32);
const TLS_FINGERPRINT = 'c3'.repeat(32);

const certificate = (
  partial: Partial<CbomCertificateInput> &
    Pick<CbomCertificateInput, 'certificateId' | 'fingerprintSha256'>,
): CbomCertificateInput => ({
  subject: 'CN=service.acme.test, O=Acme',
  issuer: 'CN=Acme Issuing CA, O=Acme',
  serialNumber: '0a1b2c',
  notBefore: new Date('2024-01-01T00:00:00Z'),
  notAfter: new Date('2026-01-01T00:00:00Z'),
  keyAlgorithm: 'RSA',
  keySize: 2048,
  curve: null,
  signatureAlgorithm: 'sha256WithRSAEncryption',
  file: null,
  line: null,
  provenance: 'repository-file',
  ...partial,
});

/** A repository with Java, Go and TypeScript crypto, committed certificates and a TLS endpoint. */
const inventory: CbomInput = {
  repository: {
    id: '01936f4e-0000-7000-8000-000000000001',
    name: 'acme/payments',
    commitSha: '3f786850e387550fdab836ed7e6dc881de23001b',
    scanId: '01936f4e-0000-7000-8000-0000000000aa',
  },
  generatedAt: new Date('2026-03-04T05:06:07.891Z'),
  tool: { name: 'driftwatch', version: '0.1.0' },
  findings: [
    finding({
      findingId: 'f-java-rsa-keygen',
      primitive: 'key-generation',
      file: 'src/main/java/com/acme/KeyService.java',
      line: 42,
      keySize: 2048,
      classification: 'deprecated-2030',
      api: 'KeyPairGenerator.getInstance',
      snippet: 'KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");',
    }),
    finding({
      findingId: 'f-go-ecdh-keygen',
      primitive: 'key-generation',
      file: 'internal/handshake/ecdh.go',
      line: 17,
      algorithm: 'ECDH',
      curve: 'P-256',
      api: 'crypto/ecdh.P256().GenerateKey',
      snippet: 'priv, err := ecdh.P256().GenerateKey(rand.Reader)',
    }),
    finding({
      findingId: 'f-go-ecdh-agree',
      primitive: 'key-agreement',
      file: 'internal/handshake/ecdh.go',
      line: 23,
      algorithm: 'ECDH',
      curve: 'secp256r1',
      api: 'crypto/ecdh.PrivateKey.ECDH',
      snippet: 'secret, err := priv.ECDH(peer)',
    }),
    finding({
      findingId: 'f-ts-ed25519-sign',
      primitive: 'signature',
      file: 'src/auth/tokens.ts',
      line: 88,
      algorithm: 'EdDSA',
      curve: 'Ed25519',
      api: 'crypto.sign',
      snippet: 'const signature = crypto.sign(null, payload, privateKey);',
    }),
    finding({
      findingId: 'f-go-mlkem-keygen',
      primitive: 'key-generation',
      file: 'internal/pq/kem.go',
      line: 9,
      algorithm: 'ML-KEM',
      keySize: 768,
      classification: 'quantum-safe',
      api: 'crypto/mlkem.GenerateKey768',
      snippet: 'dk, err := mlkem.GenerateKey768()',
    }),
    finding({
      findingId: 'f-key-material',
      primitive: 'key-material',
      file: 'deploy/keys/service.key',
      line: 1,
      keySize: 2048,
      classification: 'deprecated-2030',
      snippet: 'private key (pkcs8)',
    }),
    finding({
      findingId: 'f-library-bouncycastle',
      primitive: 'library',
      api: 'org.bouncycastle:bcprov-jdk18on',
      purl: 'pkg:maven/org.bouncycastle/bcprov-jdk18on@1.78.1',
    }),
  ],
  algorithms: [
    { algorithm: 'AES-256-GCM', kind: 'ae', file: 'src/crypto/box.ts', line: 12 },
    { algorithm: 'SHA-256', kind: 'hash', file: 'internal/digest/digest.go', line: 9 },
    { algorithm: 'SHA256', kind: 'hash', file: 'app/util.py', line: 3 },
    { algorithm: 'HMAC-SHA256', kind: 'mac', file: 'app/util.py', line: 4 },
  ],
  certificates: [
    certificate({
      certificateId: 'c-legacy',
      subject: 'CN=legacy.acme.test, O=Acme',
      issuer: 'CN=legacy.acme.test, O=Acme',
      keySize: 1024,
      signatureAlgorithm: 'sha1WithRSAEncryption',
      fingerprintSha256: LEGACY_FINGERPRINT,
      notBefore: new Date('2015-01-01T00:00:00Z'),
      notAfter: new Date('2025-01-01T00:00:00Z'),
      file: 'certs/legacy.crt',
      line: 1,
    }),
    certificate({
      certificateId: 'c-pq-root',
      subject: 'CN=Acme PQ Root',
      issuer: 'CN=Acme PQ Root',
      keyAlgorithm: 'ML-DSA',
      keySize: null,
      keyParameterSet: 'ML-DSA-65',
      signatureAlgorithm: 'ML-DSA-65',
      fingerprintSha256: PQ_FINGERPRINT,
      file: 'certs/pq-root.pem',
      line: 5,
    }),
    certificate({
      certificateId: 'c-tls',
      subject: 'CN=api.acme.test',
      keyAlgorithm: 'ECDSA',
      keySize: 256,
      curve: 'P-256',
      signatureAlgorithm: 'ecdsa-with-SHA256',
      fingerprintSha256: TLS_FINGERPRINT,
      provenance: 'tls-observation',
      endpoint: 'api.acme.test:443',
    }),
  ],
  protocols: [
    {
      endpoint: 'api.acme.test:443',
      version: 'TLSv1.3',
      cipherSuite: 'TLS_AES_128_GCM_SHA256',
      group: 'X25519MLKEM768',
    },
  ],
};

function expectValid(document: CbomDocument): void {
  const validate = cycloneDxValidator('1.6');
  const valid = validate(JSON.parse(JSON.stringify(document)));
  expect(schemaErrors(validate)).toEqual([]);
  expect(valid).toBe(true);
}

function byName(document: CbomDocument, name: string): CbomComponent {
  const found = document.components.filter((component) => component.name === name);
  expect(found, `one component named ${name}`).toHaveLength(1);
  return found[0]!;
}

function byRef(document: CbomDocument, ref: string): CbomComponent {
  const found = document.components.find((component) => component['bom-ref'] === ref);
  expect(found, `component ${ref}`).toBeDefined();
  return found!;
}

function algorithmProperties(component: CbomComponent) {
  const properties = component.cryptoProperties;
  if (properties?.assetType !== 'algorithm') throw new Error(`${component.name} is no algorithm`);
  return properties;
}

/** Every bom-ref the document points at, with where it is pointed at from. */
function pointedAt(document: CbomDocument): [string, string][] {
  const refs: [string, string][] = [];
  for (const component of document.components) {
    const from = component['bom-ref'];
    const crypto = component.cryptoProperties;
    if (crypto?.assetType === 'certificate') {
      refs.push([from, crypto.certificateProperties.signatureAlgorithmRef]);
      refs.push([from, crypto.certificateProperties.subjectPublicKeyRef]);
    }
    if (crypto?.assetType === 'related-crypto-material') {
      refs.push([from, crypto.relatedCryptoMaterialProperties.algorithmRef]);
    }
    if (crypto?.assetType === 'protocol') {
      for (const suite of crypto.protocolProperties.cipherSuites) {
        for (const ref of suite.algorithms) refs.push([from, ref]);
      }
      for (const ref of crypto.protocolProperties.cryptoRefArray ?? []) refs.push([from, ref]);
    }
  }
  for (const dependency of document.dependencies) {
    refs.push(['dependencies', dependency.ref]);
    for (const ref of [...dependency.dependsOn, ...(dependency.provides ?? [])]) {
      refs.push([dependency.ref, ref]);
    }
  }
  return refs;
}

describe('writeCbom: a realistic inventory', () => {
  const document = writeCbom(inventory);

  test('validates against the official CycloneDX 1.6 schema', () => {
    expectValid(document);
    expect(document.specVersion).toBe('1.6');
    expect(document.serialNumber).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(document.metadata.timestamp).toBe('2026-03-04T05:06:07Z');
    expect(document.metadata.tools.components).toEqual([
      { type: 'application', name: 'driftwatch', version: '0.1.0' },
    ]);
    expect(document.metadata.component).toMatchObject({
      type: 'application',
      'bom-ref': `repository:${inventory.repository.id}`,
      name: 'acme/payments',
    });
  });

  test('the schema check bites: a value outside the 1.6 enums is refused', () => {
    const broken = JSON.parse(JSON.stringify(document));
    const ecdh = broken.components.find((c: CbomComponent) => c.name === 'ECDH-P-256');
    ecdh.cryptoProperties.algorithmProperties.cryptoFunctions = ['keyagree'];
    const validate = cycloneDxValidator('1.6');
    expect(validate(broken)).toBe(false);
    expect(schemaErrors(validate).join('\n')).toMatch(/cryptoFunctions\/0 must be equal to one of/);
  });

  test('bom-refs are unique and every reference resolves to one', () => {
    const refs = [
      document.metadata.component['bom-ref'],
      ...document.components.map((c) => c['bom-ref']),
    ];
    expect(new Set(refs).size).toBe(refs.length);
    const known = new Set(refs);
    const dangling = pointedAt(document).filter(([, ref]) => !known.has(ref));
    expect(dangling).toEqual([]);
    // Every component has its dependencies entry, and the repository reaches all but the
    // certificates' own public keys (which their certificates reach).
    expect(sortedRefs(document.dependencies.map((d) => d.ref))).toEqual(sortedRefs(refs));
  });

  test.each([
    // name, primitive, classical bits, NIST category, extra algorithm properties
    ['RSA-2048', 'pke', 112, 0, { parameterSetIdentifier: '2048' }],
    ['RSA-1024', 'pke', 80, 0, { parameterSetIdentifier: '1024' }],
    ['ECDH-P-256', 'key-agree', 128, 0, { curve: 'P-256' }],
    ['ECDSA-P-256', 'signature', 128, 0, { curve: 'P-256' }],
    ['Ed25519', 'signature', 128, 0, { curve: 'Ed25519' }],
    ['ML-KEM-768', 'kem', 192, 3, { parameterSetIdentifier: '768' }],
    ['ML-DSA-65', 'signature', 192, 3, { parameterSetIdentifier: '65' }],
    ['X25519MLKEM768', 'kem', 192, 3, {}],
    ['AES-256-GCM', 'ae', 256, 5, { mode: 'gcm', parameterSetIdentifier: '256' }],
    ['AES-128-GCM', 'ae', 128, 1, { mode: 'gcm' }],
    ['SHA-256', 'hash', 128, 2, {}],
  ] as const)(
    '%s: primitive %s, classical %d, NIST category %d',
    (name, primitive, classical, nist, extra) => {
      const { algorithmProperties: properties } = algorithmProperties(byName(document, name));
      expect(properties).toMatchObject({
        primitive,
        classicalSecurityLevel: classical,
        nistQuantumSecurityLevel: nist,
        ...extra,
      });
    },
  );

  test('a SHA-1 signature is category 0 and claims no classical bit count', () => {
    const signature = algorithmProperties(byName(document, 'sha1WithRSAEncryption'));
    expect(signature.oid).toBe('1.2.840.113549.1.1.5');
    expect(signature.algorithmProperties).toEqual({
      primitive: 'signature',
      nistQuantumSecurityLevel: 0,
    });
  });

  test.each([
    ['RSA-2048', 'src/main/java/com/acme/KeyService.java', 42],
    ['RSA-2048', 'deploy/keys/service.key', 1],
    ['ECDH-P-256', 'internal/handshake/ecdh.go', 17],
    ['ECDH-P-256', 'internal/handshake/ecdh.go', 23],
    ['Ed25519', 'src/auth/tokens.ts', 88],
    ['ML-KEM-768', 'internal/pq/kem.go', 9],
    ['AES-256-GCM', 'src/crypto/box.ts', 12],
    ['SHA-256', 'internal/digest/digest.go', 9],
    ['SHA-256', 'app/util.py', 3],
    ['HMAC-SHA-256', 'app/util.py', 4],
    ['RSA-2048 private key', 'deploy/keys/service.key', 1],
    ['CN=legacy.acme.test, O=Acme', 'certs/legacy.crt', 1],
    ['CN=Acme PQ Root', 'certs/pq-root.pem', 5],
  ] as const)('%s has the occurrence %s:%d', (name, location, line) => {
    const occurrences = byName(document, name).evidence?.occurrences ?? [];
    expect(occurrences).toContainEqual(expect.objectContaining({ location, line }));
  });

  test('occurrences say what the code does, with the API and the line', () => {
    const [occurrence] = byName(document, 'Ed25519').evidence!.occurrences;
    expect(occurrence).toEqual({
      location: 'src/auth/tokens.ts',
      line: 88,
      additionalContext:
        'signature via crypto.sign: const signature = crypto.sign(null, payload, privateKey);',
    });
    // A spelling other than the component's name is kept as context.
    expect(byName(document, 'SHA-256').evidence!.occurrences).toContainEqual({
      location: 'app/util.py',
      line: 3,
      additionalContext: 'SHA256',
    });
  });

  test.each([
    ['ECDH-P-256', ['keyderive', 'keygen']],
    ['Ed25519', ['sign']],
    ['RSA-2048', ['keygen']],
    ['ML-KEM-768', ['keygen']],
    ['SHA-256', ['digest']],
    ['HMAC-SHA-256', ['tag']],
  ] as const)('%s does %j', (name, functions) => {
    expect(algorithmProperties(byName(document, name)).algorithmProperties.cryptoFunctions).toEqual(
      functions,
    );
  });

  test('the library provides the algorithm its finding names', () => {
    const library = byName(document, 'bcprov-jdk18on');
    expect(library).toEqual({
      type: 'library',
      'bom-ref': 'pkg:maven/org.bouncycastle/bcprov-jdk18on@1.78.1',
      group: 'org.bouncycastle',
      name: 'bcprov-jdk18on',
      version: '1.78.1',
      purl: 'pkg:maven/org.bouncycastle/bcprov-jdk18on@1.78.1',
    });
    const dependency = document.dependencies.find((d) => d.ref === library['bom-ref']);
    const rsa = byName(document, 'RSA');
    expect(dependency?.provides).toEqual([rsa['bom-ref']]);
    expect(algorithmProperties(rsa).algorithmProperties).toEqual({
      primitive: 'pke',
      nistQuantumSecurityLevel: 0,
    });
  });

  test('the SHA-1-signed RSA-1024 certificate points at its signature and key', () => {
    const component = byName(document, 'CN=legacy.acme.test, O=Acme');
    expect(component.hashes).toEqual([{ alg: 'SHA-256', content: LEGACY_FINGERPRINT }]);
    const crypto = component.cryptoProperties;
    if (crypto?.assetType !== 'certificate') throw new Error('not a certificate');
    expect(crypto.certificateProperties).toMatchObject({
      subjectName: 'CN=legacy.acme.test, O=Acme',
      issuerName: 'CN=legacy.acme.test, O=Acme',
      notValidBefore: '2015-01-01T00:00:00Z',
      notValidAfter: '2025-01-01T00:00:00Z',
      certificateFormat: 'X.509',
      certificateExtension: 'crt',
    });
    const signature = byRef(document, crypto.certificateProperties.signatureAlgorithmRef);
    expect(signature.name).toBe('sha1WithRSAEncryption');
    const key = byRef(document, crypto.certificateProperties.subjectPublicKeyRef);
    expect(key.cryptoProperties).toEqual({
      assetType: 'related-crypto-material',
      relatedCryptoMaterialProperties: {
        type: 'public-key',
        algorithmRef: byName(document, 'RSA-1024')['bom-ref'],
        size: 1024,
      },
    });
  });

  test('the ML-DSA certificate is signed with and holds an ML-DSA-65 key (one component)', () => {
    const crypto = byName(document, 'CN=Acme PQ Root').cryptoProperties;
    if (crypto?.assetType !== 'certificate') throw new Error('not a certificate');
    const mlDsa = byName(document, 'ML-DSA-65');
    expect(crypto.certificateProperties.signatureAlgorithmRef).toBe(mlDsa['bom-ref']);
    const key = byRef(document, crypto.certificateProperties.subjectPublicKeyRef).cryptoProperties;
    if (key?.assetType !== 'related-crypto-material') throw new Error('not key material');
    expect(key.relatedCryptoMaterialProperties.algorithmRef).toBe(mlDsa['bom-ref']);
    expect(algorithmProperties(mlDsa).oid).toBe('2.16.840.1.101.3.4.3.18');
  });

  test('a private key is named by algorithm and size, never by its bytes', () => {
    const key = byName(document, 'RSA-2048 private key');
    expect(key.cryptoProperties).toEqual({
      assetType: 'related-crypto-material',
      relatedCryptoMaterialProperties: {
        type: 'private-key',
        algorithmRef: byName(document, 'RSA-2048')['bom-ref'],
        size: 2048,
      },
    });
  });

  test('the TLS endpoint is a protocol whose suite references the hybrid group', () => {
    const protocol = byName(document, 'TLSv1.3');
    const crypto = protocol.cryptoProperties;
    if (crypto?.assetType !== 'protocol') throw new Error('not a protocol');
    const tlsCertificate = `crypto/certificate/sha256:${TLS_FINGERPRINT}`;
    expect(crypto.protocolProperties).toEqual({
      type: 'tls',
      version: '1.3',
      cipherSuites: [
        {
          name: 'TLS_AES_128_GCM_SHA256',
          algorithms: [
            byName(document, 'AES-128-GCM')['bom-ref'],
            byName(document, 'SHA-256')['bom-ref'],
            byName(document, 'X25519MLKEM768')['bom-ref'],
          ].sort(),
          identifiers: ['0x13', '0x01'],
        },
      ],
      cryptoRefArray: [tlsCertificate],
    });
    expect(protocol.evidence?.occurrences[0]?.location).toBe('api.acme.test:443');
    expect(byRef(document, tlsCertificate).evidence?.occurrences).toEqual([
      {
        location: 'api.acme.test:443',
        additionalContext: 'presented by TLS endpoint api.acme.test:443',
      },
    ]);
  });

  test('the repository depends on what it holds and uses', () => {
    const root = document.dependencies.find(
      (d) => d.ref === document.metadata.component['bom-ref'],
    );
    expect(root?.dependsOn).toEqual(
      expect.arrayContaining([
        'pkg:maven/org.bouncycastle/bcprov-jdk18on@1.78.1',
        byName(document, 'RSA-2048')['bom-ref'],
        byName(document, 'TLSv1.3')['bom-ref'],
        `crypto/certificate/sha256:${LEGACY_FINGERPRINT}`,
      ]),
    );
  });

  test('the same rows in another order give the same bytes; another time, another serial', () => {
    const shuffled: CbomInput = {
      ...inventory,
      findings: [...inventory.findings].reverse(),
      algorithms: [...inventory.algorithms].reverse(),
      certificates: [...inventory.certificates].reverse(),
    };
    expect(JSON.stringify(writeCbom(shuffled))).toBe(JSON.stringify(document));
    const later = writeCbom({ ...inventory, generatedAt: new Date('2026-03-05T00:00:00Z') });
    expect(later.serialNumber).not.toBe(document.serialNumber);
    const refs = document.components.map((c) => c['bom-ref']);
    expect(refs).toEqual(sortedRefs(refs));
  });
});

function sortedRefs(refs: string[]): string[] {
  return [...refs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

describe('writeCbom: edge cases', () => {
  test('an empty inventory validates', () => {
    const document = writeCbom({
      ...inventory,
      repository: { id: 'r-1', name: 'acme/empty' },
      findings: [],
      algorithms: [],
      certificates: [],
      protocols: [],
    });
    expectValid(document);
    expect(document.components).toEqual([]);
    expect(document.dependencies).toEqual([{ ref: 'repository:r-1', dependsOn: [] }]);
  });

  test('hostile strings and broken values still give a valid document', () => {
    const control = 'CN=evil\u0000\u0007\n\u001b[31m\ud800';
    const hostile: CbomInput = {
      ...inventory,
      findings: [
        finding({
          findingId: 'f-hostile',
          primitive: 'signature',
          file: `src/${'a/'.repeat(5000)}x.ts`,
          line: -5,
          algorithm: `RSA${'\u0000'.repeat(3)}${'x'.repeat(10_000)}`,
          keySize: Number.NaN,
          api: control,
          snippet: 'y'.repeat(100_000),
        }),
        finding({ findingId: 'f-bad-purl', primitive: 'library', purl: 'not a purl' }),
        finding({ findingId: 'f-empty', primitive: 'key-material', algorithm: '', file: '' }),
      ],
      algorithms: [
        { algorithm: '', kind: 'hash', file: 'a.go', line: 1.5 },
        { algorithm: '\u0000AES', kind: 'block-cipher', file: control, line: 3 },
      ] satisfies CbomAlgorithmInput[],
      certificates: [
        certificate({
          certificateId: 'c-hostile',
          subject: `${control}${'S'.repeat(200_000)}`,
          issuer: control,
          serialNumber: '',
          notBefore: new Date('not a date'),
          notAfter: new Date(Number.NaN),
          keyAlgorithm: 'unknown',
          signatureAlgorithm: '1.2.3.4.5',
          fingerprintSha256: 'not-hex',
          file: 'certs/evil',
        }),
        certificate({
          certificateId: 'c-no-endpoint',
          fingerprintSha256: '',
          provenance: 'tls-observation',
          endpoint: null,
          signatureAlgorithm: '',
        }),
      ],
      protocols: [
        { endpoint: '', version: null, cipherSuite: 'garbage-suite', group: '0x1234' },
        { endpoint: control, version: 'SSLv3', cipherSuite: null, group: null },
      ],
    };
    const document = writeCbom(hostile);
    expectValid(document);
    const subject = document.components.find((c) => c.name.startsWith('CN=evil'));
    expect(subject?.name.length).toBeLessThanOrEqual(4097);
    for (const component of document.components) {
      expect(component['bom-ref'].length).toBeLessThan(1000);
    }
  });

  test('a certificate seen in a file and at an endpoint is one component with both', () => {
    const shared = 'd4'.repeat(32);
    const document = writeCbom({
      ...inventory,
      findings: [],
      algorithms: [],
      protocols: [],
      certificates: [
        certificate({
          certificateId: 'c-tls-copy',
          fingerprintSha256: shared,
          provenance: 'tls-observation',
          endpoint: 'shop.acme.test:443',
        }),
        certificate({
          certificateId: 'c-file-copy',
          fingerprintSha256: shared.toUpperCase(),
          file: 'ops/shop.pem',
          line: 30,
        }),
      ],
    });
    expectValid(document);
    const certificates = document.components.filter(
      (c) => c.cryptoProperties?.assetType === 'certificate',
    );
    expect(certificates).toHaveLength(1);
    expect(certificates[0]!.evidence?.occurrences.map((o) => o.location)).toEqual([
      'ops/shop.pem',
      'shop.acme.test:443',
    ]);
    const crypto = certificates[0]!.cryptoProperties;
    expect(
      crypto?.assetType === 'certificate' && crypto.certificateProperties.certificateExtension,
    ).toBe('pem');
  });
});
