/**
 * Where the API token lives: the tab's sessionStorage only, never a URL, a cookie or
 * localStorage, so it dies with the tab and no request carries it but the API's own.
 */

/** The part of the Storage interface the token needs (tests pass a Map-backed one). */
export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface TokenStore {
  read(): string | null;
  write(token: string): void;
  clear(): void;
}

const KEY = 'driftwatch.apiToken';

export function sessionTokenStore(storage: TokenStorage): TokenStore {
  return {
    read: () => {
      const value = storage.getItem(KEY);
      return value && value.trim() !== '' ? value : null;
    },
    write: (token) => {
      const trimmed = token.trim();
      if (trimmed === '') throw new Error('an empty token cannot be stored');
      storage.setItem(KEY, trimmed);
    },
    clear: () => storage.removeItem(KEY),
  };
}
