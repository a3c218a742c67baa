/**
 * Who may talk to the desk router. A transport names the caller's slot only after one of these
 * checks passes; the renderer's own payload never decides it.
 */

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
