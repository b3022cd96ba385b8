import { strToU8, zipSync } from 'fflate';
import { canonicalJson, sha256Hex } from './evidence-model';
import type { Period } from './period';
import type { ControlEvidence } from './service';
import { type OpenSigningKey, signDetached } from './signing';

/**
 * An evidence archive (docs/compliance.md#evidence-archives): per control a JSON and a CSV file,
 * a manifest of every file's SHA-256, the manifest's detached Ed25519 signature, and a copy of
 * the public key (verify against the published one, not only this copy).
 */
export interface BuiltArchive {
  zip: Buffer;
  sha256: string;
  manifestSha256: string;
}

export interface ArchiveHeader {
  archiveId: string;
  tenantId: string;
  period: Period;
  generatedAt: Date;
}

/** A CSV field: quoted when needed; a leading formula character is neutralised with `'`. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const CSV_HEADER = [
  'control_id',
  'evidence_kind',
  'evidence_status',
  'row_type',
  'record_type',
  'record_id',
  'api_path',
  'text',
];

/** One row per item summary, per gap and per cited record. */
export function controlCsv(evidence: ControlEvidence): string {
  const id = evidence.control.controlId;
  const rows: string[][] = [CSV_HEADER];
  for (const item of evidence.evidence) {
    const lead = [id, item.kind, item.status];
    rows.push([...lead, 'summary', '', '', '', item.summary]);
    for (const gap of item.gaps) rows.push([...lead, 'gap', '', '', '', gap]);
    for (const r of item.records) rows.push([...lead, 'record', r.type, r.id, r.path, r.note]);
  }
  return `${rows.map((cells) => cells.map(csvField).join(',')).join('\r\n')}\r\n`;
}

function readme(header: ArchiveHeader, key: OpenSigningKey): string {
  return [
    'Driftwatch compliance evidence archive',
    '',
    `Archive ${header.archiveId}, period ${header.period.start.toISOString()} to ${header.period.end.toISOString()} (end exclusive).`,
    `Signed with the service's Ed25519 key ${key.keyId}.`,
    '',
    'To verify (OpenSSL 3, coreutils, jq):',
    '  curl -o pub.pem https://<service>/api/v1/compliance/signing-key',
    '  openssl pkeyutl -verify -pubin -inkey pub.pem -rawin -in manifest.json -sigfile manifest.sig',
    `  jq -r '.files[] | "\\(.sha256)  \\(.path)"' manifest.json | sha256sum -c`,
    '',
    'The first prints "Signature Verified Successfully"; the second "OK" for every file.',
    'Compare pub.pem with the signing-key.pem copy here: the published key is the one to trust.',
    '',
  ].join('\n');
}

/** Builds the zip: content files, then the manifest over them, then its signature. */
export function buildArchive(
  header: ArchiveHeader,
  controls: ControlEvidence[],
  key: OpenSigningKey,
): BuiltArchive {
  const files: Record<string, Uint8Array> = {
    'README.txt': strToU8(readme(header, key)),
    'signing-key.pem': strToU8(key.publicKeyPem),
    'controls.json': strToU8(
      `${JSON.stringify(
        controls.map((c) => ({
          controlId: c.control.controlId,
          framework: c.control.framework,
          reference: c.control.reference,
          title: c.control.title,
          result: c.result,
          testStatus: c.testStatus,
          gaps: c.gaps.length,
          json: `controls/${c.control.controlId}.json`,
          csv: `controls/${c.control.controlId}.csv`,
        })),
        null,
        2,
      )}\n`,
    ),
  };
  for (const c of controls) {
    files[`controls/${c.control.controlId}.json`] = strToU8(`${JSON.stringify(c, null, 2)}\n`);
    files[`controls/${c.control.controlId}.csv`] = strToU8(controlCsv(c));
  }
  const manifest = {
    format: 'driftwatch-evidence-archive/1',
    archiveId: header.archiveId,
    tenantId: header.tenantId,
    periodStartUtc: header.period.start.toISOString(),
    periodEndUtc: header.period.end.toISOString(),
    generatedAtUtc: header.generatedAt.toISOString(),
    signature: {
      algorithm: 'Ed25519',
      keyId: key.keyId,
      file: 'manifest.sig',
      publicKeyPath: '/api/v1/compliance/signing-key',
    },
    files: Object.entries(files)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([path, bytes]) => ({ path, bytes: bytes.length, sha256: sha256Hex(bytes) })),
  };
  const manifestBytes = strToU8(`${canonicalJson(manifest)}\n`);
  files['manifest.json'] = manifestBytes;
  files['manifest.sig'] = signDetached(key, manifestBytes);
  const zip = Buffer.from(zipSync(files, { level: 6, mtime: header.generatedAt }));
  return { zip, sha256: sha256Hex(zip), manifestSha256: sha256Hex(manifestBytes) };
}
