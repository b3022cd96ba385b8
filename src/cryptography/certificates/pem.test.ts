import { describe, expect, it } from 'vitest';
import { findPemBlocks } from './pem.js';

const BODY = Buffer.from('a certificate body, not a real one').toString('base64');
const all = (): boolean => true;

describe('findPemBlocks', () => {
  const table: [string, string, { label: string; line: number }[], RegExp[]][] = [
    [
      'own-file',
      `-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----\n`,
      [{ label: 'CERTIFICATE', line: 1 }],
      [],
    ],
    [
      'crlf-line-ends',
      `x\r\n-----BEGIN CERTIFICATE-----\r\n${BODY}\r\n-----END CERTIFICATE-----\r\n`,
      [{ label: 'CERTIFICATE', line: 2 }],
      [],
    ],
    [
      'indented-in-yaml',
      `tls:\n  ca: |\n    -----BEGIN CERTIFICATE-----\n    ${BODY}\n    -----END CERTIFICATE-----\n`,
      [{ label: 'CERTIFICATE', line: 3 }],
      [],
    ],
    [
      'string-literal-with-escaped-newlines',
      `const a = 1;\nconst ca = "-----BEGIN CERTIFICATE-----\\n${BODY}\\n-----END CERTIFICATE-----\\n";\n`,
      [{ label: 'CERTIFICATE', line: 2 }],
      [],
    ],
    [
      'two-blocks-in-a-row',
      `-----BEGIN PUBLIC KEY-----\n${BODY}\n-----END PUBLIC KEY-----\n-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----\n`,
      [
        { label: 'PUBLIC KEY', line: 1 },
        { label: 'CERTIFICATE', line: 4 },
      ],
      [],
    ],
    [
      'unterminated-then-a-good-block',
      `-----BEGIN CERTIFICATE-----\n${BODY}\n-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----\n`,
      [{ label: 'CERTIFICATE', line: 3 }],
      [/line 1: CERTIFICATE block has no END line/],
    ],
    [
      'end-with-another-label',
      `-----BEGIN CERTIFICATE-----\n${BODY}\n-----END PRIVATE KEY-----\n`,
      [],
      [/line 1: CERTIFICATE block ends with a different label/],
    ],
    [
      'lower-case-label-is-not-armour',
      `-----BEGIN certificate-----\n${BODY}\n-----END certificate-----\n`,
      [],
      [],
    ],
  ];
  it.each(table)('%s', (_scenario, text, blocks, problems) => {
    const scan = findPemBlocks(text, 10, all);
    expect(scan.blocks.map(({ label, line }) => ({ label, line }))).toEqual(blocks);
    for (const block of scan.blocks) expect(block.bytes?.toString('base64')).toBe(BODY);
    expect(scan.problems).toHaveLength(problems.length);
    problems.forEach((pattern, index) => {
      expect(scan.problems[index]).toMatch(pattern);
    });
  });

  it('keeps RFC 1421 headers apart from the body', () => {
    const text = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00\n\n${BODY}\n-----END RSA PRIVATE KEY-----\n`;
    const [block] = findPemBlocks(text, 10, all).blocks;
    expect(block?.headers).toEqual(['Proc-Type: 4,ENCRYPTED', 'DEK-Info: AES-256-CBC,00']);
    expect(block?.bytes?.toString('base64')).toBe(BODY);
  });

  it('rejects a body with characters outside base64, and padding in the middle', () => {
    for (const body of ['abc$def', 'QUJD=QUJD']) {
      const [block] = findPemBlocks(
        `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`,
        10,
        all,
      ).blocks;
      expect(block?.bytes).toBeUndefined();
    }
  });

  it('passes over labels it is not asked for, without a problem', () => {
    const text = `-----BEGIN PGP SIGNATURE-----\n${BODY}\n-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----\n`;
    const scan = findPemBlocks(text, 10, (label) => label === 'CERTIFICATE');
    expect(scan).toMatchObject({ blocks: [{ label: 'CERTIFICATE', line: 3 }], problems: [] });
  });

  it('stops at the block limit and says so', () => {
    const one = `-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----\n`;
    const scan = findPemBlocks(one.repeat(5), 3, all);
    expect(scan.blocks).toHaveLength(3);
    expect(scan.problems).toEqual(['more than 3 PEM blocks; the rest were not read']);
  });
});
