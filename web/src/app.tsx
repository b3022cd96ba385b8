import type { ComponentType } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Api, createApi, ok } from './api/client';
import { type ApiProblem, asProblem } from './api/problem';
import { sessionTokenStore } from './api/session';
import { ErrorPanel, Loading, RateLimitNotice } from './components/status';
import { AppContext, allows, type Principal, useWatch } from './context';
import { Link, matchPath, useLocation } from './router';
import { ROUTES, type RouteDef, type ScreenProps } from './routes';
import { SignIn } from './screens/SignIn';

/** Who the token is: the plan and its features, the tenant's name, the token's roles. */
export async function loadPrincipal(api: Api): Promise<Principal> {
  const [flags, tenant, token] = await Promise.all([
    ok(api.client.GET('/api/v1/feature-flags')),
    ok(api.client.GET('/api/v1/tenants/current')),
    ok(api.client.GET('/api/v1/api-tokens/current')),
  ]);
  return {
    plan: flags.plan,
    features: new Set(flags.items.filter((item) => item.enabled).map((item) => item.key)),
    tenantName: tenant.name,
    roles: token.roles,
    tokenId: token.apiTokenId,
  };
}

type Session =
  | { state: 'checking' }
  | { state: 'signed-out'; problem: ApiProblem | null }
  | { state: 'signed-in'; principal: Principal };

export function App() {
  const api = useMemo(() => createApi({ tokens: sessionTokenStore(window.sessionStorage) }), []);
  const [session, setSession] = useState<Session>(() =>
    api.tokens.read() ? { state: 'checking' } : { state: 'signed-out', problem: null },
  );
  const unauthorized = useWatch(api.unauthorized);

  const signIn = async (token: string | null) => {
    if (token !== null) api.tokens.write(token);
    setSession({ state: 'checking' });
    try {
      setSession({ state: 'signed-in', principal: await loadPrincipal(api) });
    } catch (error) {
      api.tokens.clear();
      setSession({ state: 'signed-out', problem: asProblem(error) });
    }
  };
  const signOut = () => {
    api.tokens.clear();
    setSession({ state: 'signed-out', problem: null });
  };
  useEffect(() => {
    if (api.tokens.read()) void signIn(null);
  }, []);
  // A 401 on any call: the token is unknown, expired or revoked.
  useEffect(() => {
    if (unauthorized > 0 && session.state === 'signed-in') signOut();
  }, [unauthorized]);

  if (session.state === 'checking') {
    return (
      <main id="main">
        <Loading label="Signing in" />
      </main>
    );
  }
  if (session.state === 'signed-out') return <SignIn problem={session.problem} onSignIn={signIn} />;
  return (
    <AppContext.Provider value={{ api, principal: session.principal, signOut }}>
      <Shell principal={session.principal} onSignOut={signOut} />
    </AppContext.Provider>
  );
}

function Shell({ principal, onSignOut }: { principal: Principal; onSignOut: () => void }) {
  const { path } = useLocation();
  const entries = ROUTES.filter((route) => route.nav && allows(principal, route));
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="banner">
        <Link href="/" class="brand">
          Driftwatch
        </Link>
        <p class="who">
          <span>{principal.tenantName}</span>
          <span class="tag">plan: {principal.plan}</span>
          <span class="tag">roles: {principal.roles.join(', ')}</span>
        </p>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav class="nav" aria-label="Main">
        <ul>
          {entries.map((route) => (
            <li key={route.path}>
              <Link href={route.path} aria-current={isCurrent(route, path) ? 'page' : undefined}>
                {route.nav}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <RateLimitNotice />
      <Outlet principal={principal} path={path} />
    </>
  );
}

const isCurrent = (route: RouteDef, path: string) =>
  route.path === '/' ? path === '/' : path === route.path || path.startsWith(`${route.path}/`);

/** The matched route's screen, loaded on first use; focus moves to it on navigation. */
function Outlet({ principal, path }: { principal: Principal; path: string }) {
  const main = useRef<HTMLElement>(null);
  const [screen, setScreen] = useState<{
    path: string;
    Component: ComponentType<ScreenProps>;
  } | null>(null);
  const [failed, setFailed] = useState<ApiProblem | null>(null);
  const match = ROUTES.map((route) => ({ route, params: matchPath(route.path, path) })).find(
    (candidate) => candidate.params !== null,
  );
  const route = match?.route;
  useEffect(() => {
    document.title = route ? `${route.title} · Driftwatch` : 'Not found · Driftwatch';
    if (!route) return;
    let live = true;
    setFailed(null);
    route.load().then(
      (module) => live && setScreen({ path: route.path, Component: module.default }),
      (error: unknown) => live && setFailed(asProblem(error)),
    );
    return () => {
      live = false;
    };
  }, [route]);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [path]);

  let body = <Loading />;
  if (!route || !match?.params) {
    body = (
      <section aria-labelledby="screen-title">
        <h1 id="screen-title">Page not found</h1>
        <p>
          Nothing lives at <code>{path}</code>. <Link href="/">Back to the overview</Link>
        </p>
      </section>
    );
  } else if (!allows(principal, route)) {
    body = (
      <section aria-labelledby="screen-title">
        <h1 id="screen-title">{route.title}</h1>
        <p>Your plan or role does not include this screen.</p>
      </section>
    );
  } else if (failed) body = <ErrorPanel problem={failed} />;
  else if (screen && screen.path === route.path) body = <screen.Component params={match.params} />;
  return (
    <main id="main" ref={main} tabIndex={-1}>
      {body}
    </main>
  );
}
