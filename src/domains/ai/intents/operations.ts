import { Type } from 'typebox';
import { cite, uniqueCitations } from '../citations';
import { answer, defineIntent, type Row } from '../intent';
import { listed, plural } from '../resolve';
import { withRepository } from './shared';

/**
 * Operational questions: open alerts, active policy exceptions (optionally of one repository),
 * SBOM exports, watched TLS endpoints. Each reads the tenant's own rows in the request's
 * tenant-scoped transaction.
 */

const SHOWN = 50;

export const openAlerts = defineIntent({
  name: 'alerts.open',
  summary:
    'Alerts raised and not resolved: unacknowledged (open), acknowledged, or both (a resolved alert is gone)',
  parameters: Type.Object({
    status: Type.Union([Type.Literal('open'), Type.Literal('acknowledged'), Type.Null()]),
  }),
  examples: ['Which alerts are open?', 'Show unacknowledged alerts'],
  cues: [
    { pattern: /\balerts?\b/, weight: 3 },
    {
      pattern:
        /\b(?:open|active|firing|raised|unacknowledged|acknowledged|unresolved|pending|new|current)\b/,
      weight: 2,
    },
  ],
  extract: (q) => {
    const text = q.normalised;
    if (/\b(?:unacknowledged|not acknowledged|firing|new)\b/.test(text))
      return { status: 'open' as const };
    if (/\backnowledged\b/.test(text)) return { status: 'acknowledged' as const };
    return { status: null };
  },
  run: async ({ db }, p) => {
    const found = await db
      .selectFrom('alerts')
      .select(['id', 'rule_name', 'title', 'severity', 'status', 'raised_at'])
      .$if(p.status !== null, (q) => q.where('status', '=', p.status ?? 'open'))
      .orderBy('raised_at', 'desc')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((a) => ({
      alertId: a.id,
      rule: a.rule_name,
      title: a.title,
      severity: a.severity,
      status: a.status,
      raisedUtc: a.raised_at.toISOString(),
    }));
    const kind =
      p.status === 'open'
        ? 'unacknowledged '
        : p.status === 'acknowledged'
          ? 'acknowledged '
          : 'open ';
    const text = `${plural(rows.length, `${kind}alert`)}${rows.length ? `: ${listed(rows.map((r) => String(r.title)))}` : ''}.`;
    return answer(
      text,
      rows,
      found.map((a) => cite.alert(a.id)),
    );
  },
});

export const activeExceptions = defineIntent({
  name: 'policies.exceptions',
  feature: 'policies',
  summary: 'Active policy exceptions, optionally of one repository',
  parameters: Type.Object({
    repository: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
  }),
  examples: ['Which policy exceptions are active?', 'List exceptions for repository web'],
  cues: [
    { pattern: /\b(?:exceptions?|waivers?|exemptions?)\b/, weight: 5 },
    {
      pattern: /\b(?:active|current|granted|in (?:place|force)|do we have|we have|list|all)\b/,
      weight: 2,
    },
  ],
  extract: (q) => ({ repository: q.repository }),
  run: (context, p) =>
    withRepository(
      context,
      p.repository,
      (name) => `Which policy exceptions apply to repository ${name}?`,
      async (repository) => {
        const found = await context.db
          .selectFrom('policy_exceptions as x')
          .innerJoin('policies as p', 'p.id', 'x.policy_id')
          .leftJoin('packages as k', 'k.id', 'x.package_id')
          .select([
            'x.id',
            'x.package_id',
            'k.name as package_name',
            'x.version',
            'x.repository_id',
            'x.scope',
            'x.expires_at',
            'p.name as policy',
            'p.id as policy_id',
          ])
          .where('x.status', '=', 'active')
          .where('x.expires_at', '>', context.now)
          .$if(repository !== null, (q) =>
            q.where((eb) =>
              eb.or([
                eb('x.repository_id', '=', repository?.repositoryId ?? ''),
                eb('x.repository_id', 'is', null),
              ]),
            ),
          )
          .orderBy('x.expires_at')
          .limit(SHOWN)
          .execute();
        const rows: Row[] = found.map((x) => ({
          exceptionId: x.id,
          policyId: x.policy_id,
          policy: x.policy,
          packageId: x.package_id,
          package: x.package_name,
          version: x.version,
          repositoryId: x.repository_id,
          scope: x.scope,
          expiresUtc: x.expires_at.toISOString(),
        }));
        const where = repository ? ` for ${repository.fullName}` : '';
        const text = `${plural(rows.length, 'active policy exception')}${where}${rows.length ? `: ${listed(rows.map((r) => `${r.package ?? r.packageId} (${r.policy})`))}` : ''}.`;
        return answer(
          text,
          rows,
          uniqueCitations([
            ...found.map((x) => cite.exception(x.id, x.package_id)),
            ...found.map((x) => cite.policy(x.policy_id)),
          ]),
        );
      },
    ),
});

export const sbomExports = defineIntent({
  name: 'sbom.exports',
  feature: 'sbom_export',
  summary: 'SBOM exports made, with their format and state, optionally of one format',
  parameters: Type.Object({
    format: Type.Union([Type.Literal('cyclonedx-1.6'), Type.Literal('spdx-2.3'), Type.Null()]),
  }),
  examples: ['Which SBOM exports have we made?', 'List our SBOMs'],
  cues: [
    { pattern: /\bsboms?\b|\bsoftware bills? of materials?\b|\bcyclonedx\b|\bspdx\b/, weight: 4 },
    { pattern: /\b(?:exports?|exported|generated|made|list|which|show)\b/, weight: 1 },
  ],
  extract: (q) => ({
    format: /\bcyclonedx\b/.test(q.normalised)
      ? ('cyclonedx-1.6' as const)
      : /\bspdx\b/.test(q.normalised)
        ? ('spdx-2.3' as const)
        : null,
  }),
  run: async ({ db }, p) => {
    const found = await db
      .selectFrom('sbom_exports as s')
      .innerJoin('repositories as r', 'r.id', 's.repository_id')
      .select([
        's.id',
        's.repository_id',
        'r.full_name',
        's.format',
        's.state',
        's.component_count',
        's.created_at',
      ])
      .$if(p.format !== null, (q) => q.where('s.format', '=', p.format ?? 'cyclonedx-1.6'))
      .orderBy('s.created_at', 'desc')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((s) => ({
      exportId: s.id,
      repositoryId: s.repository_id,
      repository: s.full_name,
      format: s.format,
      state: s.state,
      components: s.component_count,
      createdUtc: s.created_at.toISOString(),
    }));
    const text = `${plural(rows.length, `${p.format ? `${p.format} ` : ''}SBOM export`)}${rows.length ? `: ${listed(rows.map((r) => `${r.repository} ${r.format} ${r.state}`))}` : ''}.`;
    return answer(
      text,
      rows,
      uniqueCitations([
        ...found.map((s) => cite.sbomExport(s.id)),
        ...found.map((s) => cite.repository(s.repository_id)),
      ]),
    );
  },
});

export const tlsEndpoints = defineIntent({
  name: 'quantum.tls_endpoints',
  feature: 'quantum',
  summary: 'The TLS endpoints you watch and when each was last probed',
  parameters: Type.Object({}),
  examples: ['Which TLS endpoints do we watch?', 'List our monitored TLS hosts'],
  cues: [
    { pattern: /\btls\b|\bssl\b|\bhttps endpoints?\b/, weight: 4 },
    { pattern: /\b(?:endpoints?|hosts?|servers?|sites?)\b/, weight: 2 },
  ],
  extract: () => ({}),
  run: async ({ db }) => {
    const found = await db
      .selectFrom('quantum_tls_endpoints')
      .select(['id', 'host', 'port', 'repository_id', 'last_probed_at'])
      .orderBy('host')
      .orderBy('port')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((e) => ({
      endpointId: e.id,
      host: e.host,
      port: e.port,
      repositoryId: e.repository_id,
      lastProbedUtc: e.last_probed_at ? e.last_probed_at.toISOString() : null,
    }));
    const text = `You watch ${plural(rows.length, 'TLS endpoint')}${rows.length ? `: ${listed(rows.map((r) => `${r.host}:${r.port}`))}` : ''}.`;
    return answer(
      text,
      rows,
      found.map((e) => cite.tlsEndpoint(e.id)),
    );
  },
});

export const craProducts = defineIntent({
  name: 'cra.products',
  feature: 'cra',
  summary: 'The CRA products you declared, with their classification and support period',
  parameters: Type.Object({}),
  examples: ['Which CRA products do we have?', 'List our products under the Cyber Resilience Act'],
  cues: [
    { pattern: /\b(?:cra|cyber resilience)\b/, weight: 3 },
    { pattern: /\bproducts?\b/, weight: 5 },
  ],
  extract: () => ({}),
  run: async ({ db }) => {
    const found = await db
      .selectFrom('cra_products')
      .select(['id', 'name', 'version_line', 'classification', 'support_period_end'])
      .orderBy('name')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((p) => ({
      productId: p.id,
      name: p.name,
      versionLine: p.version_line,
      classification: p.classification,
    }));
    const text = `You have ${plural(rows.length, 'CRA product')}${rows.length ? `: ${listed(rows.map((r) => `${r.name} ${r.versionLine}`))}` : ''}.`;
    return answer(
      text,
      rows,
      found.map((p) => cite.craProduct(p.id)),
    );
  },
});

export const expiringCertificates = defineIntent({
  name: 'quantum.certificates',
  feature: 'quantum',
  summary:
    'Certificates found in code or on TLS endpoints expiring within a horizon (default 30 days)',
  parameters: Type.Object({ withinHours: Type.Integer({ minimum: 1, maximum: 24 * 3650 }) }),
  examples: ['Which certificates expire in the next 30 days?', 'Show expiring certificates'],
  cues: [
    { pattern: /\bcert(?:ificate)?s?\b/, weight: 4 },
    { pattern: /\b(?:expir\w*|run(?:s|ning)? out|valid until|lapse)\b/, weight: 2 },
  ],
  extract: (q) => ({ withinHours: q.horizonHours ?? 30 * 24 }),
  run: async ({ db, now }, p) => {
    const until = new Date(now.getTime() + p.withinHours * 3_600_000);
    const found = await db
      .selectFrom('quantum_certificates')
      .select(['id', 'repository_id', 'subject', 'not_after', 'key_algorithm', 'classification'])
      .where('not_after', '<', until)
      .orderBy('not_after')
      .limit(SHOWN)
      .execute();
    const rows: Row[] = found.map((c) => ({
      certificateId: c.id,
      repositoryId: c.repository_id,
      subject: c.subject,
      notAfterUtc: c.not_after.toISOString(),
      keyAlgorithm: c.key_algorithm,
      classification: c.classification,
    }));
    const text = `${plural(rows.length, 'certificate')} expire${rows.length === 1 ? 's' : ''} (or expired) before ${until.toISOString().slice(0, 10)}${rows.length ? `: ${listed(rows.map((r) => String(r.subject)))}` : ''}.`;
    return answer(text, rows, []);
  },
});
