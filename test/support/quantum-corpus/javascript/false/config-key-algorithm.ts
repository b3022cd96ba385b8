export interface AuthConfig {
  jwtAlgorithm: 'RS256' | 'ES256' | 'HS256';
  keyType: 'rsa' | 'ec';
  modulusLength: number;
}

export const defaults: AuthConfig = {
  jwtAlgorithm: 'RS256',
  keyType: 'rsa',
  modulusLength: 2048,
};

export function describe(config: AuthConfig): string {
  return `${config.keyType.toUpperCase()} ${config.modulusLength} (${config.jwtAlgorithm})`;
}
