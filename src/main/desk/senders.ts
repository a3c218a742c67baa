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

/**
 * The slot a request's cookie names, or null. Two slot cookies mean one was planted beside the
 * shell's own (another path or a parent domain: the browser sends the narrower first), and
 * neither can be told for the shell's: the request has no slot, rather than maybe the planter's.
 */
export function slotFromCookie(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  const values = cookieHeader.split(';').map((part) => part.trim().split('=')).filter(([name]) => name === SLOT_COOKIE).map(([, ...rest]) => rest.join('='));
  if (values.length !== 1) return null;
  return SLOT_PATTERN.test(values[0]!) ? values[0]! : null;
}

export function slotCookie(slot: string): string {
  return `${SLOT_COOKIE}=${slot}; HttpOnly; SameSite=Strict; Path=/`;
}
