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
  { path: '/cra', title: 'CRA', nav: 'CRA', feature: 'cra', load: pending },
  { path: '/cra/clocks', title: 'CRA clocks', feature: 'cra', load: pending },
  {
    path: '/quantum',
    title: 'Quantum readiness',
    nav: 'Quantum',
    feature: 'quantum',
    load: pending,
  },
  {
    path: '/settings',
    title: 'Settings',
    nav: 'Settings',
    roles: ['admin', 'owner'],
    load: () => import('./screens/settings/Settings'),
  },
];
