/**
 * How a page of the browser shell gets its slot cookie after signing in. A sign-in moves the
 * session to a new slot (the cookie the page had before may have been planted by another page on
 * this host), and the desk answers `session.cookieClaim` with a one-time claim for the new slot's
 * cookie; the page sends it back in `SLOT_CLAIM_HEADER` on a `POST` to `SLOT_CLAIM_PATH`, whose
 * answer sets the cookie. Electron's slots are its windows: there the claim is null.
 */
export const SLOT_CLAIM_PATH = '/session';
export const SLOT_CLAIM_HEADER = 'x-desk-slot-claim';
