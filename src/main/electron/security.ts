/** The app's own pages: the custom protocol in production, the dev server in development. */
export const APP_ORIGIN = 'app://desk';

export function isAppUrl(url: string | undefined, devServerUrl: string | undefined): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (`${parsed.protocol}//${parsed.host}` === APP_ORIGIN) return true;
  if (devServerUrl) {
    const dev = new URL(devServerUrl);
    return parsed.origin === dev.origin && (dev.hostname === 'localhost' || dev.hostname === '127.0.0.1');
  }
  return false;
}

/**
 * The only permission a page is granted: writing text to the clipboard (an answer's Copy), and only
 * to the app's own pages. Chromium still asks for a user gesture for each write, and the text is
 * sanitized; reading the clipboard, and everything else, stays refused.
 */
export function allowsPermission(permission: string, url: string | undefined, devServerUrl: string | undefined): boolean {
  return permission === 'clipboard-sanitized-write' && isAppUrl(url, devServerUrl);
}

/** Links that may open in the system browser: https to these hosts only. */
export const EXTERNAL_ALLOW_LIST = new Set(['docs.agentdesk.app', 'support.agentdesk.app']);

export function isAllowedExternal(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && EXTERNAL_ALLOW_LIST.has(parsed.hostname) && !parsed.username && !parsed.password;
  } catch {
    return false;
  }
}

export const RENDERER_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'none'",
].join('; ');
