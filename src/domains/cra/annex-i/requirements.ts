/** Annex I of the CRA (docs/cra.md#annex-i): Part I product properties, Part II vulnerability handling. */
export interface RequirementDefinition {
  id: string;
  part: 'I' | 'II';
  reference: string;
  title: string;
}

const partI: [string, string, string][] = [
  [
    'I-1',
    '(1)',
    'Designed, developed and produced for an appropriate level of cybersecurity based on the risks',
  ],
  ['I-2-a', '(2)(a)', 'Made available on the market without known exploitable vulnerabilities'],
  [
    'I-2-b',
    '(2)(b)',
    'Secure by default configuration, with the possibility to reset to the original state',
  ],
  [
    'I-2-c',
    '(2)(c)',
    'Vulnerabilities can be addressed through security updates; automatic updates on by default with opt-out, user notification and postponement',
  ],
  [
    'I-2-d',
    '(2)(d)',
    'Protection from unauthorised access (authentication, identity and access management); report possible unauthorised access',
  ],
  [
    'I-2-e',
    '(2)(e)',
    'Confidentiality of stored, transmitted or processed data (state-of-the-art encryption at rest and in transit)',
  ],
  [
    'I-2-f',
    '(2)(f)',
    'Integrity of data, commands, programs and configuration; report corruptions',
  ],
  ['I-2-g', '(2)(g)', 'Data minimisation'],
  [
    'I-2-h',
    '(2)(h)',
    'Availability of essential functions, including resilience against denial-of-service attacks',
  ],
  [
    'I-2-i',
    '(2)(i)',
    'Minimise the negative impact on the availability of services provided by other devices or networks',
  ],
  ['I-2-j', '(2)(j)', 'Limit attack surfaces, including external interfaces'],
  [
    'I-2-k',
    '(2)(k)',
    'Reduce the impact of an incident using exploitation mitigation mechanisms and techniques',
  ],
  [
    'I-2-l',
    '(2)(l)',
    'Record and monitor relevant internal activity (security logging), with an opt-out for the user',
  ],
  [
    'I-2-m',
    '(2)(m)',
    'Securely and permanently remove all data and settings; transfer data securely',
  ],
];

const partII: [string, string, string][] = [
  [
    'II-1',
    '(1)',
    'Identify and document vulnerabilities and components, including an SBOM in a commonly used machine-readable format covering at least the top-level dependencies',
  ],
  [
    'II-2',
    '(2)',
    'Address and remediate vulnerabilities without delay, including through security updates, separate from feature updates where feasible',
  ],
  ['II-3', '(3)', 'Apply effective and regular tests and reviews of the security of the product'],
  [
    'II-4',
    '(4)',
    'Once a security update is available, publicly disclose fixed vulnerabilities (description, affected product, impact, severity, remediation); a delay is allowed where justified',
  ],
  ['II-5', '(5)', 'Put in place and enforce a policy on coordinated vulnerability disclosure'],
  [
    'II-6',
    '(6)',
    'Facilitate the sharing of information about potential vulnerabilities, including in third-party components, by providing a contact address for reporting them',
  ],
  [
    'II-7',
    '(7)',
    'Provide mechanisms to securely distribute updates, automatically where applicable',
  ],
  [
    'II-8',
    '(8)',
    'Disseminate security updates without delay, free of charge, with advisory messages',
  ],
];

export const ANNEX_I_REQUIREMENTS: RequirementDefinition[] = [
  ...partI.map(([id, ref, title]) => ({
    id,
    part: 'I' as const,
    reference: `Annex I Part I ${ref}`,
    title,
  })),
  ...partII.map(([id, ref, title]) => ({
    id,
    part: 'II' as const,
    reference: `Annex I Part II ${ref}`,
    title,
  })),
];

/** The Article 13 duties the service tracks (fact sheet A6). */
export const CRA_DUTIES: { id: string; reference: string; title: string }[] = [
  {
    id: 'risk_assessment',
    reference: 'Art. 13(2)-(4)',
    title:
      'Cybersecurity risk assessment, documented and kept up to date, stating which Annex I Part I (2) items apply',
  },
  {
    id: 'component_due_diligence',
    reference: 'Art. 13(5)',
    title: 'Due diligence on third-party and open-source components',
  },
  {
    id: 'component_vulnerability_reporting',
    reference: 'Art. 13(6)',
    title: 'Report vulnerabilities found in components to their maintainers and share fixes',
  },
  {
    id: 'known_vulnerabilities_documented',
    reference: 'Art. 13(7)',
    title: 'Document known vulnerabilities',
  },
  {
    id: 'support_period',
    reference: 'Art. 13(8)',
    title:
      'Support period of at least five years (or the expected use time if shorter), rationale in the technical file',
  },
  {
    id: 'update_availability',
    reference: 'Art. 13(9)',
    title:
      'Each security update stays available for at least 10 years or the rest of the support period, whichever is longer',
  },
  {
    id: 'end_of_support_information',
    reference: 'Art. 13(19)',
    title:
      'End of support date (month and year) shown at purchase; users notified at end of support',
  },
  {
    id: 'technical_documentation',
    reference: 'Annex VII',
    title:
      'Technical documentation: description, design, vulnerability handling (SBOM, CVD policy, contact, secure updates), risk assessment, support period rationale, standards, test reports, declaration copy',
  },
  {
    id: 'conformity',
    reference: 'Art. 13(12), Annex V',
    title: 'Conformity assessment, EU declaration of conformity and CE marking',
  },
  {
    id: 'retention',
    reference: 'Art. 13(13)',
    title:
      'Keep the technical documentation and the declaration for 10 years or the support period if longer',
  },
  {
    id: 'identification_and_contact',
    reference: 'Art. 13(15)-(17)',
    title:
      'Type, batch or serial number; contact details; a single point of contact for vulnerability reporting',
  },
  {
    id: 'user_information',
    reference: 'Art. 13(18), Annex II',
    title:
      'Information for users, including the CVD policy, the support end date and where the SBOM is',
  },
  {
    id: 'corrective_action',
    reference: 'Art. 13(21)-(22)',
    title: 'Corrective action, withdrawal or recall of non-conforming products',
  },
  {
    id: 'sbom',
    reference: 'Art. 13(24)-(25)',
    title: 'SBOM drawn up and available to market surveillance authorities on request',
  },
];
