/**
 * Who may talk to the desk router. A transport names the caller's slot only after one of these
 * checks passes; the renderer's own payload never decides it.
 */

/** The parts of Electron's IpcMainEvent the IPC check reads (a fake one in tests). */
export interface IpcSenderEvent {
  senderFrame: { url: string } | null;
  sender: { id: number };
}

/**
 * The frame must be the app's own page; its window id names the session slot. Anything else
 * (a stray frame, a navigated or destroyed one) is refused before the router sees it.
 */
export function slotForIpcSender(event: IpcSenderEvent, isAppUrl: (url: string | undefined) => boolean): string | null {
  const url = event.senderFrame?.url;
  return isAppUrl(url) ? `window-${event.sender.id}` : null;
}

/** The browser shell accepts WebSocket upgrades only from pages it served itself. */
export function isOwnOrigin(originHeader: string | undefined, ownOrigin: string): boolean {
  return originHeader !== undefined && originHeader === ownOrigin;
}

const SLOT_COOKIE = 'desk_slot';
const SLOT_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function slotFromCookie(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SLOT_COOKIE) {
      const value = rest.join('=');
      return SLOT_PATTERN.test(value) ? value : null;
    }
  }
  return null;
}

export function slotCookie(slot: string): string {
  return `${SLOT_COOKIE}=${slot}; HttpOnly; SameSite=Strict; Path=/`;
}
