import WebSocket from 'ws';
import { expect, test } from './fixtures.js';

/** Opens a WebSocket to the shell's /desk with the given headers; resolves with the upgrade's fate. */
function tryDeskSocket(url: string, headers: Record<string, string>): Promise<{ opened: boolean; status: number | null }> {
  return new Promise((resolveFate) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/desk`, { headers });
    ws.on('open', () => { ws.close(); resolveFate({ opened: true, status: 101 }); });
    ws.on('unexpected-response', (_req, res) => { resolveFate({ opened: false, status: res.statusCode ?? null }); ws.terminate(); });
    ws.on('error', () => resolveFate({ opened: false, status: null }));
  });
}

test.describe('security', () => {
  test('the renderer has no Node: typeof require and process are undefined', async ({ page, app }) => {
    await app.open();
    const globals = await page.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      module: typeof (globalThis as { module?: unknown }).module,
      bridge: (window as { deskBridge?: object }).deskBridge ? Object.keys((window as { deskBridge?: object }).deskBridge!) : null,
    }));
    expect(globals.require).toBe('undefined');
    expect(globals.process).toBe('undefined');
    expect(globals.module).toBe('undefined');
    // Electron: the preload exposes the desk transport and nothing else; the browser shell has none.
    expect(globals.bridge).toEqual(app.target === 'electron' ? ['send', 'onMessage'] : null);
  });

  test('the app loads and signs in without a single request leaving loopback', async ({ page, app }) => {
    await app.open();
    await app.signIn();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    expect(app.outsideRequests).toEqual([]);
  });

  test('window.open to an outside page is refused', async ({ page, app }) => {
    test.skip(app.target === 'browser-shell', 'the browser shell runs in the user\'s own browser, which owns popups (CSP has no popup directive short of `sandbox`); only Electron\'s window-open handler applies');
    await app.open();
    const popups: string[] = [];
    page.context().on('page', (p) => popups.push(p.url()));
    const opened = await page.evaluate(() => window.open('https://example.com/') !== null);
    // Give a popup, if any, the time to start loading.
    await page.waitForTimeout(500);
    if (app.target === 'electron') {
      expect(opened).toBe(false);
      expect(app.electronApp!.windows()).toHaveLength(1);
    }
    expect(app.outsideRequests).toEqual([]);
    expect(popups.filter((u) => u !== 'about:blank')).toEqual([]);
  });

  test('navigating the window to an outside URL is refused', async ({ page, app }) => {
    test.skip(app.target === 'browser-shell', 'the browser shell runs in the user\'s own browser, which may navigate anywhere; only Electron\'s will-navigate guard applies');
    await app.open();
    const before = page.url();
    await page.evaluate(() => { window.location.href = 'https://example.com/'; });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(before);
    expect(new URL(page.url()).origin).toBe('app://desk');
    expect(app.outsideRequests).toEqual([]);
  });

  test('the page is served with a strict Content-Security-Policy, and it is enforced', async ({ page, app }) => {
    let csp: string | null;
    if (app.target === 'browser-shell') {
      const response = await page.goto('/');
      csp = (await response!.allHeaders())['content-security-policy'] ?? null;
      await page.locator('main').first().waitFor();
    } else {
      await app.open();
      // The app:// protocol handler sets it on every response (a meta tag would do as well).
      csp = await app.electronApp!.evaluate(async ({ net }) => (await net.fetch('app://desk/')).headers.get('content-security-policy'));
      csp ??= await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    }
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/object-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    // Enforced: an injected inline script does not run, and the violation is reported.
    const enforced = await page.evaluate(() => new Promise<{ inlineRan: boolean; violated: string | null }>((done) => {
      const marker = '__inlineRan';
      let violated: string | null = null;
      document.addEventListener('securitypolicyviolation', (e) => { violated = e.effectiveDirective; }, { once: true });
      const script = document.createElement('script');
      script.textContent = `window.${marker} = true`;
      document.head.appendChild(script);
      setTimeout(() => done({ inlineRan: (window as unknown as Record<string, unknown>)[marker] === true, violated }), 200);
    }));
    expect(enforced).toEqual({ inlineRan: false, violated: expect.stringMatching(/^script-src/) });
  });

  test('a WebSocket to /desk from a foreign origin is refused', async ({ page, app }) => {
    test.skip(app.target === 'electron', 'Electron has no WebSocket: the desk rides IPC, whose sender check is tests/main/desk/ipc-sender.test.ts');
    await app.open();
    const shell = app.shellUrl!;
    const cookie = (await page.context().cookies(shell)).map((c) => `${c.name}=${c.value}`).join('; ');
    expect(cookie).toMatch(/^desk_slot=/);
    // The page's own cookie and origin are accepted; the same cookie from another origin is not.
    expect(await tryDeskSocket(shell, { cookie, origin: shell })).toEqual({ opened: true, status: 101 });
    expect(await tryDeskSocket(shell, { cookie, origin: 'https://evil.example' })).toEqual({ opened: false, status: 403 });
    expect(await tryDeskSocket(shell, { cookie, origin: shell.replace('127.0.0.1', 'localhost') })).toEqual({ opened: false, status: 403 });
    expect(await tryDeskSocket(shell, { cookie })).toEqual({ opened: false, status: 403 });
    expect(await tryDeskSocket(shell, { origin: shell })).toEqual({ opened: false, status: 403 });

    // And from a real foreign page in the browser (served by the test, never by the network).
    await page.context().route('https://evil.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>evil</title>' }));
    await page.goto('https://evil.example/');
    const fate = await page.evaluate((url) => new Promise<string>((done) => {
      const ws = new WebSocket(url);
      ws.onopen = () => { ws.close(); done('open'); };
      ws.onerror = () => done('refused');
    }), `${shell.replace('http', 'ws')}/desk`);
    expect(fate).toBe('refused');
  });
});
