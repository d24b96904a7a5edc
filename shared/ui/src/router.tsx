/**
 * The site's client-side navigation: where the visitor is (`useLocation`), how they got there
 * (`useNavigationType`), links that move within the document (`Link`, `NavLink`) and the three
 * places a location comes from (the browser's history, a server render, a test's memory).
 *
 * The site matches its own routes (every page is listed in the deployment manifest; the shell's
 * `createRoutes`), so what it needs from a router is only this. React Router did the same job at
 * about 15 KB gzip on every first load, through the UI package that every page shares; this is
 * under 1.5 KB (docs/decisions.md). It keeps React Router's history-state format (`{ usr, key,
 * idx }`, "default" for an entry the document started on), so an entry made before a deploy reads
 * the same after it.
 */
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that made the entry carried (`navigate(to, { state })`), else null. */
  state: unknown;
  /** The history entry's own key: "default" for the entry the document started on. */
  key: string;
}

/** How the current location was reached: a link or `navigate` (PUSH, REPLACE), or Back, Forward and the first render (POP). */
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type Navigate = (to: string | number, options?: NavigateOptions) => void;

interface RouterState {
  location: Location;
  navigationType: NavigationType;
  navigate: Navigate;
}

const RouterContext = createContext<RouterState | null>(null);

function useRouter(hook: string): RouterState {
  const router = useContext(RouterContext);
  if (!router)
    throw new Error(
      `${hook}() is used outside a router (BrowserRouter, StaticRouter, MemoryRouter)`,
    );
  return router;
}

export const useLocation = (): Location => useRouter('useLocation').location;
export const useNavigationType = (): NavigationType =>
  useRouter('useNavigationType').navigationType;
export const useNavigate = (): Navigate => useRouter('useNavigate').navigate;

/** The base a relative `to` resolves against: any origin, since only same-origin paths move within the document. */
const BASE = 'http://site.invalid';

/** `to` as a location within the site, resolved against `from`; undefined for another origin or scheme. */
function resolve(to: string, from: Pick<Location, 'pathname' | 'search'>) {
  let url: URL;
  try {
    url = new URL(to, `${BASE}${from.pathname}${from.search}`);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

const pathOf = (l: Pick<Location, 'pathname' | 'search' | 'hash'>) =>
  l.pathname + l.search + l.hash;

/** A key for a new history entry (as React Router makes them). */
const newKey = () => Math.random().toString(36).slice(2, 10);

interface HistoryState {
  usr?: unknown;
  key?: string;
  idx?: number;
}

const entryState = (): HistoryState => {
  const state: unknown = window.history.state;
  return state && typeof state === 'object' ? (state as HistoryState) : {};
};

function browserLocation(): Location {
  const { pathname, search, hash } = window.location;
  const state = entryState();
  return { pathname, search, hash, state: state.usr ?? null, key: state.key ?? 'default' };
}

/**
 * The browser's history. A move renders as a transition: the page on screen stays until the next
 * one's code is here (its Suspense boundary), so a visitor never sees a loading state in between.
 */
export function BrowserRouter({ children }: { children?: ReactNode }) {
  const [current, setCurrent] = useState(() => ({
    location: browserLocation(),
    navigationType: 'POP' as NavigationType,
  }));
  useLayoutEffect(() => {
    // Entries are numbered from the document's first, as React Router numbered them.
    const state = entryState();
    if (typeof state.idx !== 'number') window.history.replaceState({ ...state, idx: 0 }, '');
    const onPop = () =>
      startTransition(() => setCurrent({ location: browserLocation(), navigationType: 'POP' }));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback<Navigate>((to, options = {}) => {
    if (typeof to === 'number') {
      window.history.go(to);
      return;
    }
    const target = resolve(to, window.location);
    if (!target) {
      window.location.assign(to);
      return;
    }
    const replace = options.replace === true;
    const at = entryState().idx ?? 0;
    const key = newKey();
    const state: HistoryState = { usr: options.state ?? null, key, idx: replace ? at : at + 1 };
    const url = pathOf(target);
    try {
      if (replace) window.history.replaceState(state, '', url);
      else window.history.pushState(state, '', url);
    } catch {
      // A state the browser will not keep (or too many entries): the move is a page load instead.
      window.location.assign(url);
      return;
    }
    startTransition(() =>
      setCurrent({
        location: { ...target, state: state.usr, key },
        navigationType: replace ? 'REPLACE' : 'PUSH',
      }),
    );
  }, []);
  const value = useMemo(() => ({ ...current, navigate }), [current, navigate]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/**
 * A location from a path as the server was asked for it, split as written (never resolved: a
 * server render and the browser's first render must see the same path, `//x` included).
 */
function parse(path: string, key = 'default'): Location {
  const hashAt = path.indexOf('#');
  const hash = hashAt === -1 ? '' : path.slice(hashAt);
  const rest = hashAt === -1 ? path : path.slice(0, hashAt);
  const searchAt = rest.indexOf('?');
  const search = searchAt === -1 ? '' : rest.slice(searchAt);
  const pathname = (searchAt === -1 ? rest : rest.slice(0, searchAt)) || '/';
  return { pathname, search, hash, state: null, key };
}

const unmoving: Navigate = () => {
  throw new Error('a page rendered on the server cannot navigate');
};

/** The location of a page rendered on the server: it never moves. */
export function StaticRouter({ location, children }: { location: string; children?: ReactNode }) {
  const value = useMemo(
    () => ({ location: parse(location), navigationType: 'POP' as const, navigate: unmoving }),
    [location],
  );
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** A history kept in memory, for tests and tools: `initialEntries` are paths, the first keyed "default". */
export function MemoryRouter({
  initialEntries = ['/'],
  initialIndex,
  children,
}: {
  initialEntries?: string[];
  initialIndex?: number;
  children?: ReactNode;
}) {
  const [history, setHistory] = useState(() => ({
    entries: initialEntries.map((path, i) => parse(path, i === 0 ? 'default' : newKey())),
    index: Math.min(
      Math.max(initialIndex ?? initialEntries.length - 1, 0),
      initialEntries.length - 1,
    ),
    navigationType: 'POP' as NavigationType,
  }));
  const navigate = useCallback<Navigate>((to, options = {}) => {
    setHistory((h) => {
      if (typeof to === 'number') {
        const index = Math.min(Math.max(h.index + to, 0), h.entries.length - 1);
        return { ...h, index, navigationType: 'POP' };
      }
      const target = resolve(to, h.entries[h.index]!);
      if (!target) return h;
      const entry = { ...target, state: options.state ?? null, key: newKey() };
      const kept = h.entries.slice(0, options.replace ? h.index : h.index + 1);
      return {
        entries: [...kept, entry],
        index: kept.length,
        navigationType: options.replace ? 'REPLACE' : 'PUSH',
      };
    });
  }, []);
  const value = useMemo(
    () => ({
      location: history.entries[history.index]!,
      navigationType: history.navigationType,
      navigate,
    }),
    [history, navigate],
  );
  return <RouterContext value={value}>{children}</RouterContext>;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of the site (`/about`, `#team`, `?page=2`), or an address elsewhere (a plain link). */
  to: string;
  /** Replace the current history entry instead of adding one (the default when `to` is where the visitor is). */
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
}

/** A click the browser would follow in this tab: the main button, no modifier, no other target. */
const followsHere = (event: MouseEvent<HTMLAnchorElement>, target: string | undefined) =>
  event.button === 0 &&
  (!target || target === '_self') &&
  !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey);

/**
 * A link. Within the site a click moves within the document (the page's `onClick` runs first and
 * may prevent it); to another origin, or with a modifier key or another target, it is a plain link.
 */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { location, navigate } = useRouter('Link');
  const resolved = resolve(to, location);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || !resolved || !followsHere(event, target)) return;
    event.preventDefault();
    const same = pathOf(resolved) === pathOf(location);
    navigate(pathOf(resolved), { replace: replace ?? same, state });
  };
  return (
    <a {...rest} href={resolved ? pathOf(resolved) : to} target={target} onClick={handleClick} />
  );
}

export interface NavLinkProps extends Omit<LinkProps, 'className'> {
  /** Active only on `to` itself, not on the pages under it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string | undefined);
}

/**
 * A link that knows when it leads where the visitor is (letter case aside, as paths are compared
 * by React Router): `aria-current="page"` and the class `active`.
 */
export function NavLink({ end = false, className = '', ...rest }: NavLinkProps) {
  const { location } = useRouter('NavLink');
  const target = (resolve(rest.to, location)?.pathname ?? rest.to).toLowerCase();
  const here = location.pathname.toLowerCase();
  const base = target !== '/' && target.endsWith('/') ? target.slice(0, -1) : target;
  const isActive = here === target || (!end && here.startsWith(`${base}/`));
  const classes =
    typeof className === 'function'
      ? className({ isActive })
      : [className, isActive ? 'active' : ''].filter(Boolean).join(' ');
  return <Link {...rest} className={classes} aria-current={isActive ? 'page' : undefined} />;
}
