import { type CSSProperties, useEffect } from 'react';
import { ChatPanel } from './chat/ChatPanel';
import { BackendBanner } from './components/BackendBanner';
import { DemoClock } from './components/DemoClock';
import { AlertToasts, Bell } from './components/Bell';
import { NotFound } from './components/NotFound';
import { useChat } from './chat/useChat';
import { matchRoute, useRoute } from './lib/route';
import { useSession } from './lib/session';
import { LoginPage } from './pages/Login';
import { PAGES } from './pages';

export function App() {
  const { status, user, check, logout } = useSession();
  const { path, navigate } = useRoute();
  const chatDocked = useChat((s) => s.open && s.docked);
  const chatWidth = useChat((s) => s.width);
  useEffect(() => { void check(); }, [check]);

  if (status === 'checking') return <p className="state" role="status">Starting…</p>;
  if (status === 'signed-out' || !user) return <LoginPage />;

  let page: { entry: (typeof PAGES)[number]; params: Record<string, string> } | null = null;
  for (const entry of PAGES) {
    const params = matchRoute(entry.pattern, path);
    if (params) { page = { entry, params }; break; }
  }
  return (
    <div className={chatDocked ? 'shell with-chat' : 'shell'} style={{ '--chat-width': `${chatWidth}px` } as CSSProperties}>
      <nav aria-label="Panel">
        <div className="brand-row">
          <div className="brand">Agent Desk</div>
          <Bell />
        </div>
        <ul>
          {PAGES.filter((p) => p.nav).map((p) => (
            <li key={p.pattern}>
              <a href={p.pattern} aria-current={page?.entry === p ? 'page' : undefined}
                onClick={(e) => { e.preventDefault(); navigate(p.pattern); }}>{p.nav}</a>
            </li>
          ))}
        </ul>
        <div className="who">
          <DemoClock timeZone={user.timezone} />
          <span>{user.name}</span>
          <button type="button" onClick={() => void logout()}>Sign out</button>
        </div>
      </nav>
      <main className="content">
        <BackendBanner />
        {page ? <page.entry.Component params={page.params} /> : <NotFound title="No such page" back={{ to: '/agent/dashboard', label: 'Back to the dashboard' }} />}
      </main>
      <ChatPanel />
      <AlertToasts />
    </div>
  );
}
