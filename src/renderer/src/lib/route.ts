import { create } from 'zustand';

/**
 * The current route and its parsed query, kept where any part of the UI (the chat panel too)
 * can read it. Routes are AGENT.md's page context: /agent/dashboard, /agent/players/ID, …
 */
export interface RouteState {
  path: string;
  query: Record<string, string>;
  navigate(to: string): void;
}

function parse(href: string): { path: string; query: Record<string, string> } {
  const url = new URL(href, window.location.origin);
  const path = url.pathname === '/' || url.pathname === '/index.html' ? '/agent/dashboard' : url.pathname;
  return { path, query: Object.fromEntries(url.searchParams) };
}

export const useRoute = create<RouteState>((set) => ({
  ...parse(window.location.href),
  navigate(to) {
    window.history.pushState(null, '', to);
    set(parse(to));
  },
}));

window.addEventListener('popstate', () => useRoute.setState(parse(window.location.href)));

/** `/agent/players/:id` → { id }, or null when the pattern does not match. */
export function matchRoute(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/');
  const a = path.split('/');
  if (p.length !== a.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i]!.startsWith(':')) params[p[i]!.slice(1)] = decodeURIComponent(a[i]!);
    else if (p[i] !== a[i]) return null;
  }
  return params;
}

/** `path` with the given query; empty or undefined values are left out. */
export function buildHref(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
