import type { EventName } from '../../events';
import { craClockDue } from './cra';
import { exposureOpened, exposureReopened, maliciousPackage } from './exposures';
import {
  advisorySeverityRaised,
  integrationDisabled,
  policyViolationOpened,
  scanFailed,
} from './findings';
import {
  healthScore,
  maintainersChanged,
  packageDeprecated,
  packageReleased,
  packageVersionsYanked,
} from './packages';
import { tlsCertificateExpiring, tlsVerdictChanged } from './quantum';
import type { RegisteredKind } from './types';

/**
 * Every alert kind (docs/alerts.md#kinds). A module that brings a new kind (CRA clock due,
 * certificate expiring) adds its event to EventPayloads, a kind file and one line here; the
 * routes, the raising job and its subscription follow from this list.
 */
export const ALERT_KINDS: readonly RegisteredKind[] = [
  exposureOpened,
  exposureReopened,
  maliciousPackage,
  advisorySeverityRaised,
  policyViolationOpened,
  packageDeprecated,
  packageVersionsYanked,
  healthScore,
  maintainersChanged,
  packageReleased,
  scanFailed,
  integrationDisabled,
  craClockDue,
  tlsVerdictChanged,
  tlsCertificateExpiring,
];

export const ALERT_KIND_NAMES: readonly string[] = ALERT_KINDS.map((k) => k.kind);

export function kindNamed(name: string): RegisteredKind | undefined {
  return ALERT_KINDS.find((k) => k.kind === name);
}

export function kindsForEvent(event: EventName): RegisteredKind[] {
  return ALERT_KINDS.filter((k) => k.event === event);
}

/** The events some kind listens to. */
export function alertEvents(): EventName[] {
  return [...new Set(ALERT_KINDS.map((k) => k.event))];
}
