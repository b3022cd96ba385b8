import type { Config } from '../../../config';
import type { KeyAlgorithm } from '../../../cryptography/certificates/types';
import type { NamedGroup } from '../../../cryptography/tls/groups';
import { type EndpointObservation, observeEndpoint } from '../../../cryptography/tls/observe';
import type { ChainAuthentication } from '../../../cryptography/tls/verdict';
import type { Database } from '../../../db/connection';
import { withTenant } from '../../../db/tenant-scope';
import {
  checkHost,
  OutboundRefusedError,
  outboundPolicy,
  REFUSED_MESSAGE,
  type Resolver,
  systemResolver,
} from '../../../security/outbound-guard';
import type { TlsObservationState } from '../tables';
import { describeChain } from './chain';
import { type ProbedEndpoint, type ProbeOutcome, recordObservation } from './record';
import type { StoredCertificateFact } from './tables';

/**
 * One probe of a watched endpoint (docs/quantum.md#tls-observations): the outbound guard checks
 * the host (a name is resolved here, every time), Node's TLS client and the raw hybrid-group
 * probe connect to the one checked address, the chain is described, and the observation is
 * recorded with its events. No transaction is held while the network is asked.
 */
export interface ProbeContext {
  database: Database;
  config: Config;
  log: (message: string, details?: object) => void;
  /** How names resolve (tests: without DNS); the system resolver otherwise. */
  resolve?: Resolver | undefined;
  now?: (() => Date) | undefined;
}

/** The stored observation's id and state; null when the endpoint is gone. */
export async function probeEndpoint(
  context: ProbeContext,
  tenantId: string,
  endpointId: string,
): Promise<{ observationId: string; state: TlsObservationState } | null> {
  const endpoint = await withTenant(context.database, tenantId, (db) =>
    db
      .selectFrom('quantum_tls_endpoints')
      .select(['id', 'host', 'port', 'server_name'])
      .where('id', '=', endpointId)
      .executeTakeFirst(),
  );
  if (!endpoint) return null;
  const target = await checkedAddress(context, tenantId, endpoint.host);
  const outcome =
    'address' in target ? await observe(context, endpoint, target.address) : target.outcome;
  const now = context.now?.() ?? new Date();
  return withTenant(context.database, tenantId, (db) =>
    recordObservation(db, tenantId, endpoint, outcome, now),
  );
}

function unobserved(state: 'refused' | 'unreachable', problem: string): ProbeOutcome {
  return {
    state,
    address: null,
    protocol: null,
    cipherSuite: null,
    group: null,
    supportedGroup: null,
    hybridKexClassicalAuth: false,
    verdictReason: null,
    problem,
    certificates: [],
  };
}

/**
 * The address to connect to, or the outcome without a connection: `refused` when the guard
 * refuses the host (the detail goes to the log only), `unreachable` when a name does not resolve.
 */
async function checkedAddress(
  context: ProbeContext,
  tenantId: string,
  host: string,
): Promise<{ address: string } | { outcome: ProbeOutcome }> {
  let unresolved = false;
  const base = context.resolve ?? systemResolver;
  const resolve: Resolver = async (name) => {
    try {
      const answers = await base(name);
      if (answers.length === 0) unresolved = true;
      return answers;
    } catch (error) {
      unresolved = true;
      throw error;
    }
  };
  try {
    const policy = outboundPolicy(context.config, 'tls-probes', tenantId, resolve);
    return { address: (await checkHost(host, policy)).address };
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error;
    if (unresolved) return { outcome: unobserved('unreachable', 'the name did not resolve') };
    context.log('tls probe refused by the outbound guard', { tenantId, detail: error.detail });
    return { outcome: unobserved('refused', REFUSED_MESSAGE) };
  }
}

/** Keys whose signatures are post-quantum: a chain of only these authenticates post-quantum. */
const POST_QUANTUM_KEYS: readonly KeyAlgorithm[] = ['ML-DSA', 'SLH-DSA', 'composite'];

function authenticationOf(
  facts: readonly StoredCertificateFact[],
  chainLength: number,
): ChainAuthentication {
  if (facts.length === 0 || facts.length < chainLength) return 'unknown';
  return facts.every((fact) => POST_QUANTUM_KEYS.some((key) => key === fact.keyAlgorithm))
    ? 'post-quantum'
    : 'classical';
}

async function observe(
  context: ProbeContext,
  endpoint: ProbedEndpoint,
  address: string,
): Promise<ProbeOutcome> {
  const now = context.now?.() ?? new Date();
  let certificates: StoredCertificateFact[] = [];
  const chainProblems: string[] = [];
  const observation = await observeEndpoint({
    address,
    port: endpoint.port,
    servername: endpoint.server_name ?? undefined,
    timeoutMs: context.config.tlsProbes.timeoutMs,
    classifyChain: (chain) => {
      certificates = describeChain(chain, now, chainProblems);
      return authenticationOf(certificates, chain.length);
    },
  });
  return outcomeOf(observation, address, certificates, chainProblems);
}

function groupView(
  group: NamedGroup | null | undefined,
): { name: string; codepoint: number } | null {
  return group ? { name: group.name, codepoint: group.codepoint } : null;
}

function outcomeOf(
  observation: EndpointObservation,
  address: string,
  certificates: StoredCertificateFact[],
  chainProblems: string[],
): ProbeOutcome {
  const { tls, hybridProbe } = observation;
  const problems = [...observation.problems, ...chainProblems];
  if (tls.chainTruncated) problems.push('the certificate chain was cut after 10 certificates');
  return {
    state: observation.verdict ?? 'unreachable',
    address,
    protocol: tls.protocol ?? (hybridProbe.tls13 ? 'TLSv1.3' : null),
    cipherSuite: tls.cipher?.standardName ?? hybridProbe.cipherSuite?.name ?? null,
    group: groupView(tls.keyExchange?.group),
    supportedGroup: groupView(observation.supportedGroup),
    hybridKexClassicalAuth: observation.hybridKexClassicalAuth,
    verdictReason: observation.verdictReason,
    problem: problems.length > 0 ? problems.join('; ') : null,
    certificates,
  };
}
