import { ANNEX_I_REQUIREMENTS } from '../cra/annex-i/requirements';

/**
 * The kinds of evidence the service computes from its own records (docs/compliance.md#evidence).
 * Each control draws on some of them; `cra_annex_i` is the CRA module's own item status.
 */
export const EVIDENCE_KINDS = [
  'scan_coverage',
  'vulnerability_remediation',
  'exceptions',
  'policy_gates',
  'sbom',
  'audit_log',
  'cra_annex_i',
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

export type Framework = 'SOC 2' | 'ISO/IEC 27001:2022' | 'EU CRA';

/** A control the service can evidence, and the requirements it maps to (fact sheet C, M:N). */
export interface ControlDefinition {
  controlId: string;
  framework: Framework;
  reference: string;
  title: string;
  /** What the control says, as its framework words it (fact sheet C). */
  description: string;
  /** Other requirements the same evidence speaks to (fact sheet C: "related"). */
  relatedRequirements: string[];
  evidenceKinds: EvidenceKind[];
  /** Audit-log actions (exact, or a prefix ending in '.') excerpted for this control. */
  auditActions: string[];
  /** CRA Annex I item this control is, when it is one. */
  craItemId: string | null;
}

const SCAN_AUDIT = ['scan.', 'repository.', 'triage_rule.', 'vulnerability_exposure.triage'];
const CHANGE_AUDIT = ['policy.', 'policy_exception.', 'policy_violation.triage'];

const FRAMEWORK_CONTROLS: ControlDefinition[] = [
  {
    controlId: 'soc2-cc7.1',
    framework: 'SOC 2',
    reference: 'CC7.1',
    title: 'Detection of vulnerabilities and configuration changes',
    description:
      'The entity uses detection and monitoring procedures to identify (1) changes to configurations that result in the introduction of new vulnerabilities, and (2) susceptibilities to newly discovered vulnerabilities.',
    relatedRequirements: ['SOC 2 CC7.2', 'ISO/IEC 27001:2022 A.8.8', 'EU CRA Annex I Part II (3)'],
    evidenceKinds: ['scan_coverage', 'vulnerability_remediation', 'sbom', 'audit_log'],
    auditActions: [...SCAN_AUDIT, 'sbom.'],
    craItemId: null,
  },
  {
    controlId: 'soc2-cc8.1',
    framework: 'SOC 2',
    reference: 'CC8.1',
    title: 'Change management: gates, policies and exceptions',
    description:
      'The entity authorizes, designs, develops or acquires, configures, documents, tests, approves, and implements changes to infrastructure, data, software, and procedures to meet its objectives.',
    relatedRequirements: ['ISO/IEC 27001:2022 A.8.32', 'ISO/IEC 27001:2022 A.8.28'],
    evidenceKinds: ['policy_gates', 'exceptions', 'audit_log'],
    auditActions: [...CHANGE_AUDIT, 'compliance_settings.'],
    craItemId: null,
  },
  {
    controlId: 'iso27001-a.8.8',
    framework: 'ISO/IEC 27001:2022',
    reference: 'A.8.8',
    title: 'Management of technical vulnerabilities',
    description:
      'Information about technical vulnerabilities of information systems in use is obtained, the exposure to them evaluated, and appropriate measures taken.',
    relatedRequirements: ['SOC 2 CC7.1', 'EU CRA Annex I Part II (2)', 'ISO/IEC 27001:2022 A.5.7'],
    evidenceKinds: ['scan_coverage', 'vulnerability_remediation', 'exceptions', 'audit_log'],
    auditActions: [...SCAN_AUDIT, 'policy_exception.'],
    craItemId: null,
  },
  {
    controlId: 'iso27001-a.8.28',
    framework: 'ISO/IEC 27001:2022',
    reference: 'A.8.28',
    title: 'Secure coding',
    description:
      'Secure coding principles are applied to software development, including the third-party and open-source components it is built from.',
    relatedRequirements: ['ISO/IEC 27001:2022 A.8.25', 'ISO/IEC 27001:2022 A.5.21', 'SOC 2 CC8.1'],
    evidenceKinds: ['policy_gates', 'sbom', 'exceptions', 'audit_log'],
    auditActions: [...CHANGE_AUDIT, 'sbom.'],
    craItemId: null,
  },
];

/** What the service's records add to each CRA Annex I Part II item beyond the CRA status. */
const CRA_ITEM_EVIDENCE: Record<string, { kinds: EvidenceKind[]; audit: string[] }> = {
  'II-1': { kinds: ['sbom'], audit: ['sbom.'] },
  'II-2': { kinds: ['vulnerability_remediation', 'exceptions'], audit: SCAN_AUDIT },
  'II-3': { kinds: ['scan_coverage', 'policy_gates'], audit: ['scan.', 'policy.'] },
};

/** Every Annex I Part II item the CRA module tracks, as a control (`cra-ii-1` …). */
const CRA_CONTROLS: ControlDefinition[] = ANNEX_I_REQUIREMENTS.filter((r) => r.part === 'II').map(
  (r) => {
    const extra = CRA_ITEM_EVIDENCE[r.id] ?? { kinds: [], audit: [] };
    return {
      controlId: `cra-${r.id.toLowerCase()}`,
      framework: 'EU CRA' as const,
      reference: r.reference,
      title: r.title,
      description: `Regulation (EU) 2024/2847, ${r.reference}: ${r.title}.`,
      relatedRequirements: [],
      evidenceKinds: ['cra_annex_i', ...extra.kinds, 'audit_log'],
      auditActions: ['cra_annex_i.', 'cra_product.', 'cra_report.', ...extra.audit],
      craItemId: r.id,
    };
  },
);

export const CONTROLS: readonly ControlDefinition[] = [...FRAMEWORK_CONTROLS, ...CRA_CONTROLS];

/** The control of an id, case-insensitively (`SOC2-CC7.1` is `soc2-cc7.1`); undefined if unknown. */
export function findControl(controlId: string): ControlDefinition | undefined {
  const wanted = controlId.toLowerCase();
  return CONTROLS.find((c) => c.controlId === wanted);
}
