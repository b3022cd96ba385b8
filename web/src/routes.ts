import type { ComponentType } from 'preact';
import type { Role } from './context';

/**
 * Every route of the web app, declared once (web/README.md "Add a screen"). Each screen is its
 * own lazily loaded chunk except the Overview's, which the first screen needs anyway. `nav`
 * puts it in the navigation; `feature` (a plan feature flag key) and `roles` hide it where the
 * principal lacks them. Query parameters a screen reads are named like the API's filters, so
 * links such as /exposures?severity=critical mean what the API means.
 */
export interface ScreenProps {
  params: Record<string, string>;
}

export interface RouteDef {
  path: string;
  title: string;
  nav?: string;
  feature?: string;
  roles?: readonly Role[];
  load: () => Promise<{ default: ComponentType<ScreenProps> }>;
}

export const ROUTES: readonly RouteDef[] = [
  { path: '/', title: 'Overview', nav: 'Overview', load: () => import('./screens/Overview') },
  {
    path: '/repositories',
    title: 'Repositories',
    nav: 'Repositories',
    load: () => import('./screens/Repositories'),
  },
  {
    path: '/repositories/:repositoryId',
    title: 'Repository',
    load: () => import('./screens/repository/index'),
  },
  {
    path: '/exposures',
    title: 'Exposures',
    nav: 'Exposures',
    load: () => import('./screens/vulns/Exposures'),
  },
  {
    path: '/exposures/:exposureId',
    title: 'Exposure',
    load: () => import('./screens/vulns/ExposureDetail'),
  },
  {
    path: '/vulnerabilities',
    title: 'Vulnerabilities',
    nav: 'Vulnerabilities',
    load: () => import('./screens/vulns/Vulnerabilities'),
  },
  {
    path: '/vulnerabilities/:vulnerabilityId',
    title: 'Vulnerability',
    load: () => import('./screens/vulns/VulnerabilityDetail'),
  },
  {
    path: '/triage-rules',
    title: 'Triage rules',
    nav: 'Triage rules',
    load: () => import('./screens/vulns/TriageRules'),
  },
  {
    path: '/packages',
    title: 'Packages',
    nav: 'Packages',
    load: () => import('./screens/packages/List'),
  },
  {
    path: '/packages/watched',
    title: 'Watched packages',
    load: () => import('./screens/packages/Watched'),
  },
  {
    path: '/packages/:packageId',
    title: 'Package',
    load: () => import('./screens/packages/Detail'),
  },
  {
    path: '/policies',
    title: 'Policies',
    nav: 'Policies',
    feature: 'policies',
    load: () => import('./screens/policies/Policies'),
  },
  {
    path: '/policies/new',
    title: 'New policy',
    feature: 'policies',
    roles: ['admin', 'owner'],
    load: () => import('./screens/policies/PolicyEditor'),
  },
  {
    path: '/policies/:policyId',
    title: 'Policy',
    feature: 'policies',
    load: () => import('./screens/policies/PolicyEditor'),
  },
  {
    path: '/violations',
    title: 'Violations',
    nav: 'Violations',
    feature: 'policies',
    load: () => import('./screens/policies/Violations'),
  },
  {
    path: '/violations/:violationId',
    title: 'Violation',
    feature: 'policies',
    load: () => import('./screens/policies/ViolationDetail'),
  },
  {
    path: '/policy-exceptions',
    title: 'Policy exceptions',
    feature: 'policies',
    load: () => import('./screens/policies/Exceptions'),
  },
  {
    path: '/alerts',
    title: 'Alerts',
    nav: 'Alerts',
    load: () => import('./screens/alerts/Alerts'),
  },
  {
    path: '/alerts/rules',
    title: 'Alert rules',
    load: () => import('./screens/alerts/AlertRules'),
  },
  {
    path: '/integrations',
    title: 'Integrations',
    nav: 'Integrations',
    roles: ['member'],
    load: () => import('./screens/integrations/Integrations'),
  },
  {
    path: '/integrations/:integrationId',
    title: 'Integration',
    roles: ['member'],
    load: () => import('./screens/integrations/Integration'),
  },
  {
    path: '/cra',
    title: 'CRA',
    nav: 'CRA',
    feature: 'cra',
    load: () => import('./screens/cra/Cra'),
  },
  {
    path: '/cra/clocks',
    title: 'CRA clocks',
    feature: 'cra',
    load: () => import('./screens/cra/CraClocks'),
  },
  {
    path: '/cra/products/:productId',
    title: 'CRA product',
    feature: 'cra',
    load: () => import('./screens/cra/CraProduct'),
  },
  {
    path: '/quantum',
    title: 'Quantum readiness',
    nav: 'Quantum',
    feature: 'quantum',
    load: () => import('./screens/quantum/Quantum'),
  },
  {
    path: '/quantum/repositories/:repositoryId',
    title: 'Quantum: repository',
    feature: 'quantum',
    load: () => import('./screens/quantum/QuantumRepository'),
  },
  {
    path: '/settings',
    title: 'Settings',
    nav: 'Settings',
    roles: ['admin', 'owner'],
    load: () => import('./screens/settings/Settings'),
  },
];
