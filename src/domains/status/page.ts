import type { ComponentView } from './measurement/components';
import type { ChangelogView, IncidentView } from './store';
import type { ComponentState } from './tables';

export const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const LABELS: Record<ComponentState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  outage: 'Outage',
  maintenance: 'Maintenance',
  unknown: 'Not measured yet',
};

const COLOURS: Record<string, string> = {
  operational: '#1a7f37',
  degraded: '#9a6700',
  outage: '#cf222e',
  maintenance: '#0969da',
  unknown: '#6e7781',
  none: '#1a7f37',
  minor: '#9a6700',
  major: '#bc4c00',
  critical: '#cf222e',
};

const DAY_MS = 86_400_000;

export interface StatusPageInput {
  overall: ComponentState;
  description: string;
  components: ComponentView[];
  incidents: IncidentView[];
  changelog: ChangelogView[];
  days: number;
  now: Date;
  /** Show the e-mail subscribe form (only once the subscribe route exists). */
  subscribe: boolean;
}

function incidentHtml(incident: IncidentView): string {
  const updates = incident.updates
    .map(
      (update) =>
        `<li><time datetime="${update.createdAtUtc}">${update.createdAtUtc.slice(0, 16).replace('T', ' ')} UTC</time> <strong>${escapeHtml(update.status)}</strong> — ${escapeHtml(update.body)}</li>`,
    )
    .join('');
  return `<article class="incident" id="incident-${incident.incidentId}"><h3>${escapeHtml(incident.title)} <small>(${escapeHtml(incident.impact)}, ${escapeHtml(incident.status)})</small></h3><ul>${updates}</ul></article>`;
}

/** One cell per day, oldest first, coloured by the worst incident that day. */
function historyHtml(incidents: IncidentView[], days: number, now: Date): string {
  const rank = { maintenance: 1, minor: 2, major: 3, critical: 4 } as const;
  const today = Math.floor(now.getTime() / DAY_MS);
  const cells: string[] = [];
  for (let day = today - days + 1; day <= today; day++) {
    const start = day * DAY_MS;
    const end = start + DAY_MS;
    const that = incidents.filter((incident) => {
      const opened = Date.parse(incident.createdAtUtc);
      const closed = incident.resolvedAtUtc ? Date.parse(incident.resolvedAtUtc) : now.getTime();
      return opened < end && closed >= start;
    });
    const worst = that.reduce<keyof typeof rank | 'none'>(
      (acc, incident) =>
        acc === 'none' || rank[incident.impact] > rank[acc] ? incident.impact : acc,
      'none',
    );
    const date = new Date(start).toISOString().slice(0, 10);
    const label =
      that.length === 0 ? 'no incidents' : that.map((incident) => incident.title).join('; ');
    cells.push(
      `<li title="${date}: ${escapeHtml(label)}" style="background:${COLOURS[worst]}"><span class="sr">${date}: ${escapeHtml(label)}</span></li>`,
    );
  }
  return `<ol class="history" aria-label="Incidents of the last ${days} days">${cells.join('')}</ol>`;
}

/** The status page for people: plain HTML and CSS, nothing needs JavaScript. */
export function renderStatusPage(input: StatusPageInput): string {
  const components = input.components
    .map(
      (component) =>
        `<li><span class="name">${escapeHtml(component.name)}</span> <span class="state" style="color:${COLOURS[component.state]}">${LABELS[component.state]}</span><br><small>${escapeHtml(component.overridden && component.overrideReason ? component.overrideReason : component.detail)}</small></li>`,
    )
    .join('');
  const open = input.incidents.filter((incident) => incident.resolvedAtUtc === null);
  const past = input.incidents.filter((incident) => incident.resolvedAtUtc !== null);
  const changes = input.changelog
    .slice(0, 10)
    .map(
      (entry) =>
        `<li id="changelog-${entry.entryId}"><time datetime="${entry.publishedAtUtc}">${entry.publishedAtUtc.slice(0, 10)}</time> <strong>${escapeHtml(entry.kind)}</strong> ${escapeHtml(entry.title)}${entry.version ? ` (${escapeHtml(entry.version)})` : ''}</li>`,
    )
    .join('');
  const form = input.subscribe
    ? `<section><h2>Subscribe</h2><form method="post" action="/status/subscribe"><label>E-mail <input type="email" name="email" required maxlength="254"></label> <button type="submit">Subscribe</button></form><p>Or follow the <a href="/status/feed.atom">Atom feed</a>.</p></section>`
    : `<section><h2>Subscribe</h2><p>Follow the <a href="/status/feed.atom">Atom feed</a>.</p></section>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Driftwatch status</title>
<link rel="alternate" type="application/atom+xml" title="Driftwatch status" href="/status/feed.atom">
<style>
body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
.overall{padding:1rem;border-radius:.5rem;color:#fff;background:${COLOURS[input.overall]}}
ul.components{list-style:none;padding:0}ul.components li{padding:.5rem 0;border-bottom:1px solid #d0d7de}
.state{float:right;font-weight:600}
ol.history{display:flex;gap:2px;list-style:none;padding:0}ol.history li{flex:1;height:2rem;border-radius:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
</style>
</head>
<body>
<h1>Driftwatch status</h1>
<p class="overall" id="overall">${escapeHtml(input.description)}</p>
<section><h2>Components</h2><ul class="components">${components}</ul></section>
<section><h2>Open incidents</h2>${open.length === 0 ? '<p>No open incidents.</p>' : open.map(incidentHtml).join('')}</section>
<section><h2>Last ${input.days} days</h2>${historyHtml(input.incidents, input.days, input.now)}${past.length === 0 ? '<p>No incidents in this period.</p>' : past.map(incidentHtml).join('')}</section>
<section><h2>Changelog</h2>${changes === '' ? '<p>No entries yet.</p>' : `<ul>${changes}</ul>`}</section>
${form}
<p><small>Updated ${input.now.toISOString().slice(0, 16).replace('T', ' ')} UTC · <a href="/api/v1/status/public">JSON</a></small></p>
</body>
</html>
`;
}

/**
 * A short page answering a form post or a link from a mail (subscribe, confirm, unsubscribe):
 * what happened in one sentence and the way back to the status page; no script.
 */
export function renderAnswerPage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Driftwatch status</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1f2328}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p id="message">${escapeHtml(message)}</p>
<p><a href="/status">Back to the status page</a></p>
</body>
</html>
`;
}
