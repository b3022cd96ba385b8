import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type QueryChanges, withFilter, withQuery } from './api/query-state';

/**
 * The router: routes in the path (history API), filters and paging in the query. Routes are
 * declared once in routes.ts; screens read the location with useLocation and change the query
 * with useQueryState, so the back button and shared links restore a view.
 */

export interface Location {
  path: string;
  search: string;
}

const CHANGE = 'driftwatch:navigate';

const current = (): Location => ({
  path: window.location.pathname,
  search: window.location.search,
});

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGE));
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  return location;
}

/**
 * The query of the current location and two ways to change it: `setQuery` keeps the page,
 * `setFilter` returns to the first page. Both push a history entry (replace: true to not).
 */
export function useQueryState() {
  const location = useLocation();
  const go = (search: string, replace?: boolean) =>
    navigate(`${location.path}${search}`, { replace: replace ?? false });
  return {
    search: location.search,
    setQuery: (changes: QueryChanges, replace?: boolean) =>
      go(withQuery(location.search, changes), replace),
    setFilter: (changes: QueryChanges, replace?: boolean) =>
      go(withFilter(location.search, changes), replace),
  };
}

/** A path pattern's parameters (`/repositories/:repositoryId`), or null when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const value = got[index] ?? '';
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) return null;
  }
  return params;
}

interface AnchorProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page';
  'aria-label'?: string;
}

/** An in-app link: a real <a href> (open in a new tab works), navigated without a reload. */
export function Link({ href, children, ...rest }: AnchorProps) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
