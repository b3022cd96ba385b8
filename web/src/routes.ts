import type { ComponentType } from 'preact';

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
  roles?: readonly string[];
  load: () => Promise<{ default: ComponentType<ScreenProps> }>;
}

const pending = () => import('./screens/Pending');

export const ROUTES: readonly RouteDef[] = [
  { path: '/', title: 'Overview', nav: 'Overview', load: () => import('./screens/Overview') },
  {
    path: '/repositories',
    title: 'Repositories',
    nav: 'Repositories',
    load: () => import('./screens/Repositories'),
  },
  { path: '/repositories/:repositoryId', title: 'Repository', load: pending },
  { path: '/exposures', title: 'Exposures', nav: 'Exposures', load: pending },
  { path: '/vulnerabilities', title: 'Vulnerabilities', nav: 'Vulnerabilities', load: pending },
  { path: '/packages', title: 'Packages', nav: 'Packages', load: pending },
  { path: '/policies', title: 'Policies', nav: 'Policies', feature: 'policies', load: pending },
  {
    path: '/violations',
    title: 'Violations',
    nav: 'Violations',
    feature: 'policies',
    load: pending,
  },
  { path: '/alerts', title: 'Alerts', nav: 'Alerts', load: pending },
  {
    path: '/integrations',
    title: 'Integrations',
    nav: 'Integrations',
    feature: 'integrations',
    load: pending,
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
    load: pending,
  },
];
