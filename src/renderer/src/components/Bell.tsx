import { useEffect, useId, useRef, useState } from 'react';
import { useChat } from '../chat/useChat';
import { type AlertOpen, type AlertView, alertTime, badgeText, bellLabel, createAlertsStore } from '../lib/alerts';
import { desk } from '../lib/desk';
import { isUnauthorized } from '../lib/errors';
import { useRoute } from '../lib/route';
import { businessNow, useSession } from '../lib/session';

/**
 * The header's bell: the last 100 alerts from main's feed, the unread count, and a
 * click on one opens its page. In the browser shell a new alert the user should hear of is a Web
 * Notification when they allowed it, else a toast; in Electron main shows the system's
 * notification itself and the feed never asks the page to.
 */
export const useAlerts = createAlertsStore();

/** How long a toast stays unless the pointer or focus is on it. */
const TOAST_MS = 8_000;
/** A feed that failed for another reason than the session is asked for again after this. */
const RETRY_MS = 3_000;

function openAlert(open: AlertOpen): void {
  if ('chat' in open) useChat.getState().setOpen(true);
  else useRoute.getState().navigate(open.page);
}

/** Web Notifications: only in the browser shell (Electron's renderer is denied every permission; main notifies there). */
function webNotifications(): typeof Notification | null {
  if (window.deskBridge || typeof Notification === 'undefined') return null;
  return Notification;
}

function tell(alert: AlertView): void {
  const N = webNotifications();
  if (N?.permission === 'granted') {
    try {
      const n = new N(alert.title, { body: alert.body, tag: `alert-${alert.id}` });
      n.onclick = () => {
        window.focus();
        openAlert(alert.open);
        n.close();
      };
      return;
    } catch {
      // Some browsers allow notifications only from a service worker: the toast says it instead.
    }
  }
  useAlerts.getState().toast(alert);
}

/** Subscribes to the feed while the signed-in panel is on screen. */
function useAlertFeed(): void {
  useEffect(() => {
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let sub: { unsubscribe(): void } | null = null;
    const start = () => {
      sub = desk.alerts.feed.subscribe(undefined, {
        onData: (item) => {
          const { tell: show, open } = useAlerts.getState().apply(item);
          if (show) tell(show);
          if (open) openAlert(open);
        },
        onError: (error) => {
          if (stopped) return;
          if (isUnauthorized(error)) {
            useSession.getState().expired();
            return;
          }
          retry = setTimeout(start, RETRY_MS);
        },
      });
    };
    start();
    return () => {
      stopped = true;
      clearTimeout(retry);
      sub?.unsubscribe();
      useAlerts.getState().reset();
    };
  }, []);
}

export function Bell() {
  useAlertFeed();
  const id = useId();
  const alerts = useAlerts((s) => s.alerts);
  const unread = useAlerts((s) => s.unread);
  const timeZone = useSession((s) => s.user?.timezone ?? 'UTC');
  const [open, setOpen] = useState(false);
  const [permission, setPermission] = useState(() => webNotifications()?.permission ?? null);
  const panelRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  // Seen once the panel is open: everything in it is read, for every page of this user.
  const newest = alerts[0]?.id;
  useEffect(() => {
    if (open && newest && unread > 0) void desk.alerts.markRead.mutate({ upTo: newest }).catch(() => undefined);
  }, [open, newest, unread]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const choose = (alert: AlertView) => {
    setOpen(false);
    openAlert(alert.open);
  };

  const askPermission = async () => {
    const N = webNotifications();
    if (!N) return;
    // Asked here, from the click itself: browsers refuse (or remember a refusal of) a request the user did not make.
    setPermission(await N.requestPermission());
  };

  const now = businessNow();
  return (
    <div className="bell">
      <button ref={buttonRef} type="button" className="bell-button" aria-label={bellLabel(unread)} aria-expanded={open}
        aria-controls={`${id}-panel`} data-testid="bell" data-unread={unread} onClick={() => setOpen((o) => !o)}>
        {/* Drawn, not an emoji: a system without a colour-emoji font shows an empty box for one. */}
        <svg aria-hidden="true" focusable="false" className="bell-icon" viewBox="0 0 24 24" width="18" height="18">
          <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" />
        </svg>
        {unread > 0 && <span className="bell-count" data-testid="bell-count" aria-hidden="true">{badgeText(unread)}</span>}
      </button>
      {open && (
        <div ref={panelRef} id={`${id}-panel`} className="bell-panel" role="dialog" aria-label="Alerts" data-testid="bell-panel">
          <div className="bell-head">
            <h2>Alerts</h2>
            {permission === 'default' && (
              <button type="button" data-testid="bell-enable" onClick={() => void askPermission()}>Turn on desktop alerts</button>
            )}
            {permission === 'denied' && <span className="muted bell-note">Desktop alerts are blocked in this browser: alerts show here.</span>}
          </div>
          {alerts.length === 0 ? (
            <p className="muted bell-empty">No alerts yet.</p>
          ) : (
            <ul className="bell-list">
              {alerts.map((a) => (
                <li key={a.id}>
                  <button type="button" className={a.read ? 'bell-item' : 'bell-item unread'} data-testid="bell-item" data-kind={a.kind}
                    data-muted={a.muted} onClick={() => choose(a)}>
                    <span className="bell-item-head">
                      <span className="bell-title">{a.title}</span>
                      <time className="muted" dateTime={a.at}>{alertTime(a.at, now, timeZone)}</time>
                    </span>
                    <span className="bell-body">{a.body}</span>
                    {a.muted && <span className="bell-muted" data-testid="bell-muted">Muted</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

/** New alerts as toasts (browser shell, without desktop alerts): read out politely, each opens its page. */
export function AlertToasts() {
  const toasts = useAlerts((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite" role="status" data-testid="toasts">
      {toasts.map((t) => <Toast key={t.id} alert={t} />)}
    </div>
  );
}

function Toast({ alert }: { alert: AlertView }) {
  const [held, setHeld] = useState(false);
  const onDismiss = () => useAlerts.getState().dismiss(alert.id);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => useAlerts.getState().dismiss(alert.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [held, alert.id]);
  return (
    <div className="toast" data-testid="toast" data-kind={alert.kind} onPointerEnter={() => setHeld(true)} onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)} onBlur={() => setHeld(false)}>
      <button type="button" className="toast-open" onClick={() => { onDismiss(); openAlert(alert.open); }}>
        <span className="bell-title">{alert.title}</span>
        <span className="bell-body">{alert.body}</span>
      </button>
      <button type="button" className="toast-close" aria-label="Dismiss" onClick={onDismiss}>×</button>
    </div>
  );
}
