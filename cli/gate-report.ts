/**
 * What `driftwatch gate` found and how it prints it (docs/policies.md#ci-gate): for people, as
 * JSON, or as SARIF 2.1.0 for code-scanning tools. Only blocking findings are reported.
 */

export interface GateFinding {
  policyId: string | null;
  policyName: string;
  severity: string;
  action: string;
  status: string;
  ecosystem: string;
  packageName: string;
  version: string | null;
  purl: string | null;
  /** The manifest or lockfile that declares it (online: the service's current scan), else null. */
  file: string | null;
  line: number | null;
  violationId: string | null;
  /** Why it blocks: the action, or an unknown value failing safe. */
  reason: string;
}

export interface GateResult {
  mode: 'online' | 'offline';
  target: string;
  scanId: string | null;
  /** Online: the evaluation the verdict rests on (cli/gate-online.ts UsedEvaluation). */
  evaluation?: object | null;
  evaluated: number;
  findings: GateFinding[];
  notes: string[];
}

export const SARIF_SCHEMA_URI =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

export function renderHuman(result: GateResult): string {
  const lines = [`driftwatch gate (${result.mode}): ${result.target}`];
  for (const note of result.notes) lines.push(`  note: ${note}`);
  if (result.findings.length === 0) {
    lines.push(`PASS: no blocking policy violation (${result.evaluated} evaluated).`);
    return lines.join('\n');
  }
  lines.push(`BLOCKED: ${result.findings.length} blocking policy violation(s):`);
  for (const f of result.findings) {
    const where = f.file ? ` in ${f.file}${f.line === null ? '' : `:${f.line}`}` : '';
    lines.push(
      `  [${f.severity}] ${f.policyName}: ${f.ecosystem} ${f.packageName}${f.version ? `@${f.version}` : ''}${where} (${f.reason})`,
    );
  }
  return lines.join('\n');
}

export function renderJson(result: GateResult): string {
  return JSON.stringify({ blocked: result.findings.length > 0, ...result }, null, 2);
}

const LEVEL: Record<string, 'error' | 'warning' | 'note'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
};

const ruleIdOf = (f: GateFinding) => f.policyId ?? `policy/${f.policyName}`;

/** SARIF 2.1.0: one rule per policy, one result per blocking finding. */
export function renderSarif(result: GateResult, toolVersion: string): string {
  const rules = new Map<string, object>();
  for (const f of result.findings) {
    rules.set(ruleIdOf(f), {
      id: ruleIdOf(f),
      name: f.policyName,
      shortDescription: { text: f.policyName },
      properties: { severity: f.severity, action: f.action },
    });
  }
  const ruleIds = [...rules.keys()];
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'driftwatch',
            version: toolVersion,
            rules: [...rules.values()],
          },
        },
        results: result.findings.map((f) => ({
          ruleId: ruleIdOf(f),
          ruleIndex: ruleIds.indexOf(ruleIdOf(f)),
          level: LEVEL[f.severity] ?? 'error',
          message: {
            text: `${f.policyName}: ${f.ecosystem} ${f.packageName}${f.version ? `@${f.version}` : ''} (${f.reason})`,
          },
          // A finding with no file (an unknown value failing safe) has no location to point at.
          ...(f.file === null
            ? {}
            : {
                locations: [
                  {
                    physicalLocation: {
                      artifactLocation: { uri: f.file },
                      ...(f.line === null ? {} : { region: { startLine: f.line } }),
                    },
                  },
                ],
              }),
          partialFingerprints: {
            driftwatchFinding: `${ruleIdOf(f)}:${f.ecosystem}:${f.packageName}:${f.version ?? ''}`,
          },
          properties: {
            status: f.status,
            purl: f.purl,
            violationId: f.violationId,
          },
        })),
        properties: { mode: result.mode, target: result.target, scanId: result.scanId },
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
