/**
 * The layer rules of docs/architecture.md#layer-rules, written down once and enforced by
 * `npm run lint` (dependency-cruiser). A wrong-way import or a cycle fails lint and so CI;
 * test/structure/layering.test.ts proves that with a deliberate one of each kind.
 *
 * Layers, lowest first (a layer imports only layers before it, never one after it):
 *   core, observability → db, security, ecosystems, cryptography → sbom, registry-defaults, intel, sources, jobs, http
 *   → config.ts → domains
 *   → composition root (app.ts, service.ts, background-jobs.ts, main.ts, logger.ts,
 *   process-handlers.ts, operator/) → cli
 * Tests (*.test.ts) may import anything except that no cycle is allowed anywhere.
 */

const TEST = '\\.test\\.ts$';
const COMPOSITION_ROOT =
  '^src/(app|service|background-jobs|main|logger|process-handlers|openapi-document|operator/[a-z-]+)\\.ts$';
// config.ts and the two modules it is made of (config-settings.ts, config-values.ts).
const CONFIG = '^src/config(-settings|-values)?[.]ts$';
// A module of src/ or cli/ named for test-only support: test-helpers.ts, test-records.ts,
// npm-test-support.ts, fake-scm.ts, mock-registry.ts, fixtures.ts, ... (a name of dash-separated
// words, one of them test, tests, testing, fixture(s), mock(s), fake(s) or stub(s)).
const TEST_SUPPORT_IN_PRODUCT =
  '^(src|cli).*[/-](test|tests|testing|fixtures?|mocks?|fakes?|stubs?)(|-[a-z0-9-]*)[.]ts$';

/** A rule that `layer` (a folder of src) imports only `allowed` folders of src besides itself. */
function onlyImports(layer, allowed, comment) {
  const within = [layer, ...allowed].map((name) => `^src/${name}/`);
  return {
    name: `${layer}-imports-only-${allowed.length ? allowed.join('-') : 'itself'}`,
    comment,
    severity: 'error',
    from: { path: `^src/${layer}/`, pathNot: TEST },
    to: { path: '^src/', pathNot: within },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No cycles anywhere: a cycle hides which module owns what, and breaks load order.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    onlyImports('core', [], 'core is what every layer shares: it imports nothing from src.'),
    onlyImports(
      'observability',
      [],
      'observability: the metrics; fed by observers the root wires, it knows no other layer.',
    ),
    onlyImports('security', ['core'], 'security: token format, secret box, outbound guard.'),
    onlyImports(
      'ecosystems',
      ['core'],
      'ecosystems are a pure library (used by the CLI and the scan worker): no service code.',
    ),
    onlyImports(
      'cryptography',
      ['core'],
      'cryptography: a pure library for the quantum inventory (source detectors, certificate and key parsing, the TLS probe codec); addresses arrive already checked by the outbound guard.',
    ),
    {
      name: 'ecosystem-plugins-independent',
      comment:
        'One ecosystem folder never reaches into another; what they share lives in ecosystems/shared/ or at the top of ecosystems/.',
      severity: 'error',
      from: { path: '^src/ecosystems/([^/]+)/', pathNot: TEST },
      to: {
        path: '^src/ecosystems/[^/]+/',
        pathNot: ['^src/ecosystems/$1/', '^src/ecosystems/shared/'],
      },
    },
    {
      name: 'db-imports-only-core-and-table-types',
      comment:
        'db: connections, migrations, tenant scope. The one exception is db/schema.ts, which assembles the DB type from the tables.ts files (type-only).',
      severity: 'error',
      from: { path: '^src/db/', pathNot: TEST },
      to: {
        path: '^src/',
        pathNot: ['^src/(db|core)/', '[/-]tables\\.ts$'],
      },
    },
    {
      name: 'only-schema-imports-table-types-upwards',
      comment: 'Only db/schema.ts may import table types of a higher layer, and only as types.',
      severity: 'error',
      from: { path: '^src/db/', pathNot: ['^src/db/schema\\.ts$', TEST] },
      to: { path: '^src/(domains|intel|jobs)/' },
    },
    {
      name: 'schema-imports-tables-as-types-only',
      severity: 'error',
      from: { path: '^src/db/schema\\.ts$' },
      to: { path: '^src/(domains|intel|jobs)/', dependencyTypesNot: ['type-only'] },
    },
    onlyImports('sbom', ['core', 'ecosystems'], 'sbom: SBOM formats, pure conversions.'),
    onlyImports(
      'registry-defaults',
      ['core', 'ecosystems'],
      "registry-defaults: reads the ecosystem clients' configuration from inputs it is given.",
    ),
    onlyImports(
      'intel',
      ['core', 'db', 'ecosystems'],
      'intel: the shared knowledge (advisories, the package catalogue, matching, health, drift, risk); values come in as arguments.',
    ),
    onlyImports('sources', ['core', 'security'], 'sources: source-control providers and git.'),
    onlyImports('jobs', ['core', 'db'], 'jobs: queue, outbox and event relay; no job list here.'),
    onlyImports(
      'http',
      ['core', 'db', 'security'],
      'http: the request pipeline; domains plug in through ports wired by app.ts.',
    ),
    {
      name: 'config-imports-no-domains',
      comment:
        'config.ts (with config-settings.ts and config-values.ts) parses settings into the types of lower layers; it knows no domain.',
      severity: 'error',
      from: { path: CONFIG },
      to: { path: ['^src/domains/', '^src/http/', COMPOSITION_ROOT] },
    },
    {
      name: 'lower-layers-get-values-not-config',
      comment:
        'Below the domains, settings arrive as arguments: only domains and the root read Config.',
      severity: 'error',
      from: {
        path: '^src/(core|observability|db|security|ecosystems|cryptography|registry-defaults|sbom|intel|sources|jobs|http)/',
        pathNot: TEST,
      },
      to: { path: [CONFIG, COMPOSITION_ROOT] },
    },
    {
      name: 'domains-not-to-composition-root',
      comment: 'Domains are wired by the composition root; they never import it.',
      severity: 'error',
      from: { path: '^src/domains/', pathNot: TEST },
      to: { path: COMPOSITION_ROOT },
    },
    {
      name: 'test-support-stays-in-tests',
      comment: 'Test support lives in test/support/ and is imported by tests only.',
      severity: 'error',
      from: { path: '^(src|cli)/', pathNot: TEST },
      to: { path: ['^test/', TEST, 'test-support'] },
    },
    {
      name: 'test-support-lives-in-test',
      comment:
        'Test-only support (helpers, record builders, fakes) lives in test/support/, not beside the product code in src/ or cli/, whoever imports it.',
      severity: 'error',
      from: {},
      to: { path: TEST_SUPPORT_IN_PRODUCT },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The detectors' labelled corpus is input data (source files of many languages), not code.
    exclude: { path: '^(src/db/migrations/|test/support/quantum-corpus/)' },
    // `import type` counts: a type-only import is still a dependency of the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.json'],
    },
  },
};
