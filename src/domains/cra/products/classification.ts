import type { CraClassification } from '../tables';

/**
 * The Annex III and IV categories (docs/cra.md#products): 19 important class I, 4 important
 * class II, 3 critical. Classification is by core functionality; the Commission's Implementing
 * Regulation (EU) 2025/2392 describes each category technically (not reproduced here).
 */
export const CRA_CATEGORIES = {
  important_class_i: {
    identity_access_management:
      'Identity management systems and privileged access management software and hardware, including authentication and access control readers, incl. biometric readers',
    browsers: 'Standalone and embedded browsers',
    password_managers: 'Password managers',
    anti_malware: 'Software that searches for, removes, or quarantines malicious software',
    vpn: 'Products with digital elements with the function of virtual private network (VPN)',
    network_management: 'Network management systems',
    siem: 'Security information and event management (SIEM) systems',
    boot_managers: 'Boot managers',
    pki: 'Public key infrastructure and digital certificate issuance software',
    network_interfaces: 'Physical and virtual network interfaces',
    operating_systems: 'Operating systems',
    routers_modems_switches:
      'Routers, modems intended for the connection to the internet, and switches',
    security_microprocessors: 'Microprocessors with security-related functionalities',
    security_microcontrollers: 'Microcontrollers with security-related functionalities',
    security_asic_fpga:
      'Application specific integrated circuits (ASIC) and field-programmable gate arrays (FPGA) with security-related functionalities',
    smart_home_assistants: 'Smart home general purpose virtual assistants',
    smart_home_security:
      'Smart home products with security functionalities (door locks, security cameras, baby monitoring systems, alarm systems)',
    connected_toys: 'Internet connected toys with social interactive or location tracking features',
    health_wearables:
      'Personal wearable products to be worn or placed on a human body that have a health monitoring purpose, and wearables for children',
  },
  important_class_ii: {
    hypervisors_container_runtimes:
      'Hypervisors and container runtime systems that support virtualised execution of operating systems and similar environments',
    firewalls_ids_ips: 'Firewalls, intrusion detection and intrusion prevention systems',
    tamper_resistant_microprocessors: 'Tamper-resistant microprocessors',
    tamper_resistant_microcontrollers: 'Tamper-resistant microcontrollers',
  },
  critical: {
    hardware_security_boxes: 'Hardware devices with security boxes',
    smart_meter_gateways:
      'Smart meter gateways within smart metering systems and other devices for advanced security purposes, including for secure cryptoprocessing',
    smartcards_secure_elements: 'Smartcards or similar devices, including secure elements',
  },
} as const satisfies Record<Exclude<CraClassification, 'default'>, Record<string, string>>;

export function categoriesOf(classification: CraClassification): string[] {
  return classification === 'default' ? [] : Object.keys(CRA_CATEGORIES[classification]);
}

export function categoryTitle(
  classification: CraClassification,
  category: string | null,
): string | null {
  if (classification === 'default' || category === null) return null;
  const titles: Record<string, string> = CRA_CATEGORIES[classification];
  return titles[category] ?? null;
}

export interface ConformityRoute {
  /** The modules the manufacturer may use. */
  modules: string[];
  /** Whether a notified body (third party) is always involved. */
  thirdPartyRequired: boolean;
  /** The article that sets the route. */
  legalBasis: string;
  description: string;
}

/** The conformity assessment route that follows from the class (Art. 32; Annex VIII). */
export const CONFORMITY_ROUTES: Record<CraClassification, ConformityRoute> = {
  default: {
    modules: ['A', 'B+C', 'H', 'EU cybersecurity certification scheme'],
    thirdPartyRequired: false,
    legalBasis: 'Art. 32(1)',
    description:
      'Module A (internal control, self-assessment), or EU-type examination (B) with conformity to type (C), full quality assurance (H), or a European cybersecurity certification scheme.',
  },
  important_class_i: {
    modules: [
      'A (only with harmonised standards, common specifications or an EU scheme applied in full)',
      'B+C',
      'H',
    ],
    thirdPartyRequired: false,
    legalBasis: 'Art. 32(2)',
    description:
      'Module A only where harmonised standards, common specifications or a European cybersecurity certification scheme at assurance level at least "substantial" are applied in full; otherwise B+C or H with a notified body. Free and open-source software with public technical documentation may use Module A (Art. 32(5)).',
  },
  important_class_ii: {
    modules: ['B+C', 'H', 'EU cybersecurity certification scheme (at least "substantial")'],
    thirdPartyRequired: true,
    legalBasis: 'Art. 32(3)',
    description:
      'Always third-party: B+C, H, or a European cybersecurity certification scheme at assurance level at least "substantial". Free and open-source software with public technical documentation may use Module A (Art. 32(5)).',
  },
  critical: {
    modules: ['EU cybersecurity certificate (at least "substantial")', 'B+C', 'H'],
    thirdPartyRequired: true,
    legalBasis: 'Art. 32(4), Art. 8(1)',
    description:
      'A European cybersecurity certificate at assurance level at least "substantial" once a delegated act under Art. 8(1) requires it; until then the routes of Art. 32(3) (B+C, H or a scheme).',
  },
};
