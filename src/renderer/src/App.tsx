import { type CSSProperties, type KeyboardEvent, Suspense, lazy, useEffect, useRef, useState } from 'react';
import { BackendBanner } from './components/BackendBanner';
import { DemoClock } from './components/DemoClock';
import { AlertToasts, Bell } from './components/Bell';
import { NotFound } from './components/NotFound';
import { LoadFailed, PageLoading } from './components/OnDemand';
import { useChat } from './chat/useChat';
import { matchRoute, useRoute } from './lib/route';
import { useSession } from './lib/session';
import { LoginPage } from './pages/Login';
import { PAGES } from './pages';

/** The assistant's panel and its cards: not part of the login page's own code (see `useCodeAhead`). */
const loadChatPanel = () => import('./chat/ChatPanel');
const ChatPanel = lazy(() => loadChatPanel().then((m) => ({ default: m.ChatPanel })));

export function App() {
  const { status, user, check, logout } = useSession();
  const { path, navigate } = useRoute();
  const chatDocked = useChat((s) => s.open && s.docked);
  const chatWidth = useChat((s) => s.width);
  const menu = useMenu(path);
  useEffect(() => { void check(); }, [check]);

  let page: { entry: (typeof PAGES)[number]; params: Record<string, string> } | null = null;
  for (const entry of PAGES) {
    const params = matchRoute(entry.pattern, path);
    if (params) { page = { entry, params }; break; }
  }
  useCodeAhead(status === 'signed-out' ? page?.entry.Component.preload ?? null : null);

  if (status === 'checking') return <p className="state" role="status">Starting…</p>;
  if (status === 'signed-out' || !user) return <LoginPage />;

  return (
    <div className={chatDocked ? 'shell with-chat' : 'shell'} style={{ '--chat-width': `${chatWidth}px` } as CSSProperties}>
      <nav aria-label="Panel" ref={menu.navRef} onKeyDown={menu.onKeyDown}>
        <div className="brand-row">
          {/* Shown only where the sidebar is folded away (styles.css, narrow widths). */}
          <button type="button" className="nav-toggle" ref={menu.toggleRef} aria-expanded={menu.open} aria-controls="panel-menu"
            aria-label="Menu" data-testid="nav-toggle" onClick={() => menu.setOpen(!menu.open)}>
            <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22"><path fill="currentColor" d="M3 5h18v2H3zm0 6h18v2H3zm0 6h18v2H3z" /></svg>
          </button>
          <div className="brand">Agent Desk</div>
          <Bell />
        </div>
        <div className="nav-menu" id="panel-menu" data-open={menu.open}>
          <ul>
            {PAGES.filter((p) => p.nav).map((p) => (
              <li key={p.pattern}>
                <a href={p.pattern} aria-current={page?.entry === p ? 'page' : undefined}
                  onClick={(e) => { e.preventDefault(); menu.setOpen(false); navigate(p.pattern); }}>{p.nav}</a>
              </li>
            ))}
          </ul>
          <div className="who">
            <DemoClock timeZone={user.timezone} />
            <span>{user.name}</span>
            <button type="button" onClick={() => void logout()}>Sign out</button>
          </div>
        </div>
      </nav>
      <main className="content">
        <BackendBanner />
        {page
          ? <LoadFailed key={page.entry.pattern} what="This page"><Suspense fallback={<PageLoading />}><page.entry.Component params={page.params} /></Suspense></LoadFailed>
          : <NotFound title="No such page" back={{ to: '/agent/dashboard', label: 'Back to the dashboard' }} />}
      </main>
      {/* Nothing in its place while it loads: the panel's button appears when it can be used. */}
      <LoadFailed what="The assistant"><Suspense fallback={null}><ChatPanel /></Suspense></LoadFailed>
      <AlertToasts />
    </div>
  );
}

/**
 * While the login page waits for someone to type, the code signing in will need (the page the
 * route opens on, and the assistant's panel) is fetched when the browser is idle, so that Sign in
 * waits for the first read only, not for that code as well. A failed fetch is left for the page's
 * own load to report.
 */
function useCodeAhead(preloadPage: (() => Promise<unknown>) | null) {
  useEffect(() => {
    if (!preloadPage) return;
    const fetchAhead = () => { void preloadPage().catch(() => undefined); void loadChatPanel().catch(() => undefined); };
    const id = window.requestIdleCallback(fetchAhead, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }, [preloadPage]);
}

/**
 * The folded sidebar's menu (narrow widths; at wider ones the button is not shown and the menu is
 * always laid out). It closes when a page opens, on Escape (the focus goes back to its button),
 * and on a press outside the navigation.
 */
function useMenu(path: string) {
  const [open, setOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!navRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    setOpen(false);
    toggleRef.current?.focus();
  };
  return { open, setOpen, navRef, toggleRef, onKeyDown };
}
