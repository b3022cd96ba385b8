import { sql } from 'kysely';
import { iso } from '../../core/iso-time';
import type { Database } from '../../db/connection';
import { newId } from '../../db/ids';
import type { Notifier } from './subscriptions/notify';
import type { ChangelogKind, IncidentImpact, IncidentStatus } from './tables';

type System = Database['system'];

export interface IncidentView {
  incidentId: string;
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  components: string[];
  createdAtUtc: string;
  updatedAtUtc: string;
  resolvedAtUtc: string | null;
  updates: { updateId: string; status: IncidentStatus; body: string; createdAtUtc: string }[];
}

export interface ChangelogView {
  entryId: string;
  kind: ChangelogKind;
  title: string;
  body: string;
  version: string | null;
  publishedAtUtc: string;
}

/** Inserts an incident and its first update, and tells subscribers, in one transaction. */
export async function insertIncident(
  db: System,
  input: {
    title: string;
    impact: IncidentImpact;
    status: IncidentStatus;
    components: string[];
    body: string;
  },
  notify: Notifier | null = null,
): Promise<string> {
  const id = newId();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('status_incidents')
      .values({
        id,
        title: input.title,
        impact: input.impact,
        status: input.status,
        components: input.components,
        resolved_at: input.status === 'resolved' ? new Date() : null,
      })
      .execute();
    await trx
      .insertInto('status_incident_updates')
      .values({ id: newId(), incident_id: id, status: input.status, body: input.body })
      .execute();
    await notify?.(trx, {
      type: input.status === 'resolved' ? 'status.incident.resolved' : 'status.incident.created',
      incident: {
        incidentId: id,
        title: input.title,
        impact: input.impact,
        status: input.status,
        components: input.components,
        update: { status: input.status, body: input.body },
      },
    });
  });
  return id;
}

/**
 * Appends an update, moves the incident to its status and tells subscribers; false when there
 * is no such incident.
 */
export async function insertIncidentUpdate(
  db: System,
  incidentId: string,
  input: { status: IncidentStatus; body: string },
  notify: Notifier | null = null,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const incident = await trx
      .updateTable('status_incidents')
      .set({
        status: input.status,
        updated_at: sql<Date>`now()`,
        resolved_at: input.status === 'resolved' ? sql<Date>`COALESCE(resolved_at, now())` : null,
      })
      .where('id', '=', incidentId)
      .returning(['title', 'impact', 'components'])
      .executeTakeFirst();
    if (!incident) return false;
    await trx
      .insertInto('status_incident_updates')
      .values({ id: newId(), incident_id: incidentId, status: input.status, body: input.body })
      .execute();
    await notify?.(trx, {
      type: input.status === 'resolved' ? 'status.incident.resolved' : 'status.incident.updated',
      incident: { incidentId, ...incident, status: input.status, update: input },
    });
    return true;
  });
}

/** Open incidents and those created within `days`, newest first, each with its updates. */
export async function listIncidents(db: System, days: number): Promise<IncidentView[]> {
  const incidents = await db
    .selectFrom('status_incidents')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('resolved_at', 'is', null),
        eb('created_at', '>', sql<Date>`now() - make_interval(days => ${days})`),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (incidents.length === 0) return [];
  const updates = await db
    .selectFrom('status_incident_updates')
    .selectAll()
    .where(
      'incident_id',
      'in',
      incidents.map((incident) => incident.id),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return incidents.map((incident) => ({
    incidentId: incident.id,
    title: incident.title,
    impact: incident.impact,
    status: incident.status,
    components: incident.components,
    createdAtUtc: incident.created_at.toISOString(),
    updatedAtUtc: incident.updated_at.toISOString(),
    resolvedAtUtc: iso(incident.resolved_at),
    updates: updates
      .filter((update) => update.incident_id === incident.id)
      .map((update) => ({
        updateId: update.id,
        status: update.status,
        body: update.body,
        createdAtUtc: update.created_at.toISOString(),
      })),
  }));
}

export async function insertChangelogEntry(
  db: System,
  input: {
    kind: ChangelogKind;
    title: string;
    body: string;
    version: string | null;
    publishedAt: Date | null;
  },
): Promise<string> {
  const id = newId();
  await db
    .insertInto('status_changelog')
    .values({
      id,
      kind: input.kind,
      title: input.title,
      body: input.body,
      version: input.version,
      ...(input.publishedAt ? { published_at: input.publishedAt } : {}),
    })
    .execute();
  return id;
}

/**
 * The newest published entries first, at most `limit`. An entry dated in the future is
 * scheduled: it appears (page, list, feed) when its time comes, not before.
 */
export async function listChangelog(db: System, limit: number): Promise<ChangelogView[]> {
  const rows = await db
    .selectFrom('status_changelog')
    .selectAll()
    .where('published_at', '<=', sql<Date>`now()`)
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    entryId: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    version: row.version,
    publishedAtUtc: row.published_at.toISOString(),
  }));
}
