import { decodeJwt, decodeProtectedHeader } from 'jose';

export function describeToken(token: string) {
  const header = decodeProtectedHeader(token);
  const claims = decodeJwt(token);
  const asymmetric = header.alg === 'RS256' || header.alg === 'ES256';
  return { alg: header.alg, asymmetric, subject: claims.sub };
}
