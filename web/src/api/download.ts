/**
 * Downloads that need the bearer token (a report pack, a CBOM): a plain link cannot carry the
 * header, so the screen fetches the bytes with the client (`parseAs: 'blob'`) and hands them to
 * the browser as a file named like the service's Content-Disposition says.
 */

/** The file name in a Content-Disposition header, or `fallback`. */
export function filenameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return safeName(decodeURIComponent(star[1].trim().replace(/^"|"$/g, '')), fallback);
    } catch {
      return fallback;
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ? safeName(plain[1].trim(), fallback) : fallback;
}

/** Only the last path segment, and never empty. */
function safeName(name: string, fallback: string): string {
  const last = name.split(/[\\/]/).pop()?.trim() ?? '';
  return last === '' || last === '.' || last === '..' ? fallback : last;
}

/** Hands `blob` to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The browser has taken the file once the click's task ends.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
