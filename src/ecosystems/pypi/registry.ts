import { joinUrl } from '../../core/http-client';
import { asArray, asObject, trimmedText } from '../../core/json-values';
import {
  assemble,
  defineClient,
  type EcosystemRegistry,
  fetchMainDocument,
  uniq,
  type VersionInput,
} from '../registry-common';
import { isoTime, own, parseJsonObject } from '../registry-http';
import { normaliseName } from './common';
import { pypiVersioning } from './versioning';

/**
 * PyPI client: one request to the JSON API (`GET <base>/pypi/<name>/json`). `releases` maps each
 * version to its files; a version's time is its earliest upload, and it is yanked when every file
 * is (PEP 592). Licence, URLs and people come from `info`, which describes the latest release
 * only. Deprecation: the classifier `Development Status :: 7 - Inactive` or a PEP 792 status
 * (`deprecated`, `archived`, `quarantined`). Downloads are
 * not reported by PyPI (the field is -1).
 */

const SOURCE_KEYS = ['source', 'source code', 'repository', 'code', 'github', 'gitlab', 'git'];
const HOME_KEYS = ['homepage', 'home', 'home page'];

export const pypiRegistry: EcosystemRegistry = (info, settings) =>
  defineClient(info, settings, 'PYPI_URL', async (context, name, options) => {
    const main = await fetchMainDocument(
      context,
      {
        url: joinUrl(context.baseUrl, `pypi/${encodeURIComponent(name)}/json`),
        headers: { accept: 'application/json' },
      },
      options,
    );
    if (main.state === 'answered') return main.metadata;
    const response = main.response;
    const doc = parseJsonObject(response.body, 'PyPI project');
    const info = asObject(own(doc, 'info'));
    const latest = trimmedText(own(info, 'version'), 256);
    const licence = licenceOf(info);
    const releases = asObject(own(doc, 'releases')) ?? {};
    const versions: VersionInput[] = [];
    for (const [version, rawFiles] of Object.entries(releases)) {
      if (!pypiVersioning.isValid(version)) continue;
      const files = asArray(rawFiles)
        .map(asObject)
        .filter((f) => f !== null);
      let earliest: string | null = null;
      for (const file of files) {
        const time = isoTime(
          own(file, 'upload_time_iso_8601') ?? uploadTime(own(file, 'upload_time')),
        );
        if (time !== null && (earliest === null || time < earliest)) earliest = time;
      }
      const yanked = files.length > 0 && files.every((f) => own(f, 'yanked') === true);
      versions.push({
        version,
        publishedAtUtc: earliest,
        deprecated: null,
        yanked,
        yankedReason: yanked ? trimmedText(own(files[0]!, 'yanked_reason'), 1000) : null,
        licence: version === latest ? licence : null,
      });
    }
    const urls = asObject(own(info, 'project_urls'));
    const maintainers = uniq(
      [own(info, 'maintainer'), own(info, 'author')]
        .flatMap((x) => (typeof x === 'string' ? x.split(/\s*(?:,|\band\b)\s*/) : []))
        .map((x) => trimmedText(x, 200))
        .filter((x): x is string => x !== null),
    );
    return assemble(context.info, {
      name: normaliseName(trimmedText(own(info, 'name'), 256) ?? name),
      versions,
      latest,
      deprecated: deprecationOf(info, doc),
      licence,
      repositoryUrl: pickUrl(urls, SOURCE_KEYS),
      homepage: pickUrl(urls, HOME_KEYS) ?? trimmedText(own(info, 'home_page')),
      description: trimmedText(own(info, 'summary'), 1000),
      maintainers,
      etag: response.etag,
      lastModified: response.lastModified,
      notes: ['licence and people describe the latest release only', 'downloads are not reported'],
    });
  });

/** Old `upload_time` values have no zone; PyPI writes them in UTC. */
function uploadTime(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?$/.test(value)) {
    return null;
  }
  return `${value}Z`;
}

function licenceOf(info: Record<string, unknown> | null): string | null {
  const expression = trimmedText(own(info, 'license_expression'), 200);
  if (expression) return expression;
  const licence = trimmedText(own(info, 'license'), 10_000);
  // Some projects paste the whole licence text into `license`; the classifier is then better.
  if (licence && licence.length <= 100 && !licence.includes('\n')) return licence;
  const classifiers = asArray(own(info, 'classifiers')).filter((c) => typeof c === 'string');
  const fromClassifier = classifiers
    .filter((c) => c.startsWith('License :: '))
    .map((c) => c.split(' :: ').at(-1)!)
    .filter((c) => c !== 'OSI Approved');
  if (fromClassifier.length > 0) return fromClassifier.join(' OR ');
  return licence ? licence.split('\n')[0]!.slice(0, 100) : null;
}

function deprecationOf(
  info: Record<string, unknown> | null,
  doc: Record<string, unknown>,
): string | null {
  // PEP 792 status markers, as the Simple JSON API spells them (`project-status`) or snake_cased.
  const status = asObject(
    own(info, 'project_status') ?? own(info, 'project-status') ?? own(doc, 'project-status'),
  );
  const state = trimmedText(own(status, 'status'), 50)?.toLowerCase();
  if (state === 'deprecated' || state === 'archived' || state === 'quarantined') {
    return trimmedText(own(status, 'reason'), 1000) ?? `project status: ${state}`;
  }
  const classifiers = asArray(own(info, 'classifiers'));
  if (classifiers.includes('Development Status :: 7 - Inactive')) {
    return 'Development Status :: 7 - Inactive';
  }
  return null;
}

function pickUrl(urls: Record<string, unknown> | null, keys: string[]): string | null {
  if (urls === null) return null;
  for (const key of keys) {
    for (const [label, value] of Object.entries(urls)) {
      if (label.trim().toLowerCase() === key && typeof value === 'string')
        return trimmedText(value);
    }
  }
  return null;
}
