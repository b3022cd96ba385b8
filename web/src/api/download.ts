/**
 * Documents the service sends as attachments (SBOM and CBOM): the file name from
 * Content-Disposition, else a fallback. Bytes are fetched with the bearer token (no token in a
 * URL), then handed to the browser as a blob download.
 */
export function attachmentName(header: string | null, fallback: string): string {
  if (header === null) return fallback;
  const quoted = /filename="([^"]+)"/i.exec(header);
  const bare = /filename=([^;\s]+)/i.exec(header);
  const name = (quoted?.[1] ?? bare?.[1] ?? '').trim();
  // Only a plain file name: never a path.
  if (name === '' || name.includes('/') || name.includes('\\') || name.startsWith('.')) {
    return fallback;
  }
  return name;
}
