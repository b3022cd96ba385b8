import { filenameOf, saveBlob } from '../../api/download';
import { ApiError, problemOf } from '../../api/problem';

/**
 * Downloads a document the service sends as an attachment: fetched with the bearer token (never
 * a token in a URL), then handed to the browser as a blob under the service's file name.
 */
export async function saveAttachment(
  pending: Promise<{ data?: unknown; error?: unknown; response: Response }>,
  fallbackName: string,
): Promise<string> {
  const { data, error, response } = await pending;
  if (!response.ok || !(data instanceof Blob)) throw new ApiError(problemOf(response, error));
  const name = filenameOf(response.headers.get('content-disposition'), fallbackName);
  saveBlob(data, name);
  return name;
}
