// electron-builder's afterPack hook (electron-builder.yml): flips Electron's fuses in the packaged
// binary. It runs after the app is copied next to Electron and before electron-builder signs it,
// which is the only moment that works: flipping a fuse changes the binary, so it must precede the
// signature. The fuse settings live here, in one place, so the packaged app and the test that
// reads them back (tests/scripts/after-pack.test.ts) cannot disagree.
import { join } from 'node:path';
import { FuseState, FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses';

/** AGENT_DESK_FUSES picks the flavour; anything but these two names stops the build. */
export const FUSE_FLAVOURS = /** @type {const} */ (['production', 'test']);

/**
 * Every fuse of the V1 wire, set on purpose (strictlyRequireAllFuses below makes a fuse that a
 * newer Electron adds stop the build until someone decides its value here).
 * @param {'production' | 'test'} flavour
 */
export function fuseSettings(flavour) {
  return {
    // `ELECTRON_RUN_AS_NODE=1 "Agent Desk"` would otherwise be a signed Node interpreter.
    [FuseV1Options.RunAsNode]: false,
    // Cookies on disk are encrypted with the OS keychain key.
    [FuseV1Options.EnableCookieEncryption]: true,
    // NODE_OPTIONS (--require, --inspect…) from the environment would run code in main.
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    // --inspect / --inspect-brk on the command line would open a debugger into main. Playwright's
    // `_electron.launch` connects exactly that way (it passes --inspect=0), so the test flavour
    // keeps it and is never shipped.
    [FuseV1Options.EnableNodeCliInspectArguments]: flavour === 'test',
    // app.asar is checked against the hash electron-builder embeds (macOS Info.plist, Windows
    // resource; Electron has no such check on Linux).
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    // A loose resources/app folder next to the asar is never loaded instead of it.
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    // No custom V8 snapshot is used; the fuse would make Electron look for a second one.
    [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
    // The renderer comes from app://, never file://, so file:// keeps no browser-like privileges.
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    // Electron's default: V8 bounds-checks WebAssembly memory with guard pages rather than explicit
    // checks, which keeps PGlite (WebAssembly, in main) fast.
    [FuseV1Options.WasmTrapHandlers]: true,
  };
}

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {'production' | 'test'}
 */
export function fuseFlavour(env) {
  const value = env.AGENT_DESK_FUSES ?? 'production';
  if (value !== 'production' && value !== 'test') {
    throw new Error(`AGENT_DESK_FUSES=${value}: expected one of ${FUSE_FLAVOURS.join(', ')}`);
  }
  return value;
}

/**
 * The file the fuses are in, found the way electron-builder's own `addElectronFuses` finds it:
 * the Linux executable is named after `executableName`, the others after the product name
 * (flipFuses itself goes from a `.app` to the framework binary inside it).
 * @param {{ appOutDir: string, electronPlatformName: string, packager: { executableName?: string, appInfo: { productFilename: string } } }} context
 */
export function electronBinaryPath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'linux') {
    if (!packager.executableName) throw new Error('the Linux packager has no executableName');
    return join(appOutDir, packager.executableName);
  }
  const extension = { darwin: '.app', mas: '.app', win32: '.exe' }[electronPlatformName];
  if (extension === undefined) throw new Error(`no fuse layout known for platform ${electronPlatformName}`);
  return join(appOutDir, `${packager.appInfo.productFilename}${extension}`);
}

// builder-util's Arch enum; read by number so the hook needs nothing but @electron/fuses.
const ARCH_ARM64 = 3;

/**
 * @param {{ appOutDir: string, electronPlatformName: string, arch: number, packager: { executableName?: string, appInfo: { productFilename: string } } }} context
 * @param {NodeJS.ProcessEnv} [env]
 */
export async function afterPack(context, env = process.env) {
  const flavour = fuseFlavour(env);
  const binary = electronBinaryPath(context);
  const settings = fuseSettings(flavour);
  await flipFuses(binary, {
    version: FuseVersion.V1,
    strictlyRequireAllFuses: true,
    // Apple silicon refuses a binary whose ad-hoc signature no longer matches; electron-builder
    // re-signs afterwards when it has an identity, and this keeps an unsigned build runnable.
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' && context.arch === ARCH_ARM64,
    ...settings,
  });
  // Read back: a packaged app whose fuses are not what this file says must not be shipped.
  const wire = await getCurrentFuseWire(binary);
  for (const [index, wanted] of Object.entries(settings)) {
    const expected = wanted ? FuseState.ENABLE : FuseState.DISABLE;
    const actual = wire[/** @type {FuseV1Options} */ (Number(index))];
    if (actual !== expected) {
      throw new Error(`fuse ${FuseV1Options[Number(index)]} reads ${actual} after flipping, expected ${expected}`);
    }
  }
  console.log(`  • fuses (${flavour} flavour) set in ${binary}`);
}

export default afterPack;
