import { XMLBuilder } from 'fast-xml-parser';
import type { ChangelogView, IncidentView } from './store';

/**
 * Text XML 1.0 can carry: lone surrogates and C0 controls other than tab, LF and CR (which no
 * XML document may contain, escaped or not) become U+FFFD.
 */
export function xmlText(text: string): string {
  let out = '';
  for (const char of text) {
    // Iterating by code point leaves a lone surrogate as a one-unit string.
    const code = char.codePointAt(0) ?? 0;
    const allowed =
      (code < 0xd800 || code > 0xdfff) && code >= 0x20
        ? code !== 0xfffe && code !== 0xffff
        : code === 0x09 || code === 0x0a || code === 0x0d;
    out += allowed ? char : '\uFFFD';
  }
  return out;
}

/** The feed's id never changes: a tag URI (RFC 4151) naming this status feed. */
export const FEED_ID = 'tag:driftwatch.dev,2026:status';

interface Entry {
  id: string;
  title: string;
  updated: string;
  published: string;
  link: string;
  category: string;
  content: string;
}

function incidentEntry(incident: IncidentView, base: string): Entry {
  const lines = incident.updates.map(
    (update) => `${update.createdAtUtc} — ${update.status}: ${update.body}`,
  );
  return {
    id: `urn:uuid:${incident.incidentId}`,
    title: `[${incident.status}] ${incident.title}`,
    updated: incident.updatedAtUtc,
    published: incident.createdAtUtc,
    link: `${base}/status#incident-${incident.incidentId}`,
    category: `incident-${incident.impact}`,
    content: lines.join('\n'),
  };
}

function changelogEntry(entry: ChangelogView, base: string): Entry {
  return {
    id: `urn:uuid:${entry.entryId}`,
    title: `${entry.kind}: ${entry.title}${entry.version ? ` (${entry.version})` : ''}`,
    updated: entry.publishedAtUtc,
    published: entry.publishedAtUtc,
    link: `${base}/status#changelog-${entry.entryId}`,
    category: entry.kind,
    content: entry.body,
  };
}

/**
 * Incidents and changelog entries as one Atom 1.0 feed (RFC 4287), newest first. `base` is the
 * origin the caller reached (scheme and host), so every link is absolute.
 */
export function renderAtomFeed(
  incidents: IncidentView[],
  changelog: ChangelogView[],
  base: string,
  generatedAt: Date,
): string {
  const entries = [
    ...incidents.map((incident) => incidentEntry(incident, base)),
    ...changelog.map((entry) => changelogEntry(entry, base)),
  ].sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
  // An empty feed has no newest entry: its updated is when it was generated.
  const updated = entries[0]?.updated ?? generatedAt.toISOString();
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    format: true,
    suppressEmptyNode: false,
  });
  const link = (href: string, rel: string, type: string) => ({
    '@href': href,
    '@rel': rel,
    '@type': type,
  });
  const document = {
    '?xml': { '@version': '1.0', '@encoding': 'utf-8' },
    feed: {
      '@xmlns': 'http://www.w3.org/2005/Atom',
      id: FEED_ID,
      title: 'Driftwatch status',
      subtitle: 'Incidents and changes of the Driftwatch service',
      updated,
      author: { name: 'Driftwatch operations' },
      link: [
        link(`${base}/status/feed.atom`, 'self', 'application/atom+xml'),
        link(`${base}/status`, 'alternate', 'text/html'),
      ],
      entry: entries.map((entry) => ({
        id: entry.id,
        title: xmlText(entry.title),
        updated: entry.updated,
        published: entry.published,
        link: link(entry.link, 'alternate', 'text/html'),
        category: { '@term': entry.category },
        content: { '@type': 'text', '#text': xmlText(entry.content) },
      })),
    },
  };
  return builder.build(document);
}
