// The afterPack hook against a file laid out like Electron's binary: the real @electron/fuses
// finds the sentinel, flips the wire, and reads it back, so no Electron download is needed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterEach, describe, expect, it } from 'vitest';
import { afterPack, electronBinaryPath, fuseFlavour } from '../../scripts/after-pack.mjs';

// From @electron/fuses (dist/constants.js): the marker Electron's build puts before the wire.
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const { ENABLE: ON, DISABLE: OFF } = FuseState;

// Electron 45's wire as it ships, in FuseV1Options order: every fuse the hook must change is
// in the opposite state here, so a fuse left alone shows up.
const STOCK = [ON, OFF, ON, ON, OFF, OFF, OFF, ON, ON];

// Written out rather than read from after-pack.mjs, so a fuse set the wrong way there fails here.
const PRODUCTION: Record<FuseV1Options, FuseState> = {
  [FuseV1Options.RunAsNode]: OFF,
  [FuseV1Options.EnableCookieEncryption]: ON,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: OFF,
  [FuseV1Options.EnableNodeCliInspectArguments]: OFF,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: ON,
  [FuseV1Options.OnlyLoadAppFromAsar]: ON,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: OFF,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: OFF,
  [FuseV1Options.WasmTrapHandlers]: ON,
};
const TEST_FLAVOUR = { ...PRODUCTION, [FuseV1Options.EnableNodeCliInspectArguments]: ON };

const HEAD = Buffer.from('\x7fELF fake electron binary, code before the fuses\n');
const TAIL = Buffer.from('\ncode after the fuses');

function wire(states: number[]): Buffer {
  return Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, states.length, ...states])]);
}

function fakeBinary(path: string, wires: Buffer[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.concat([HEAD, ...wires.flatMap((w) => [w, TAIL])]));
}

const linux = (appOutDir: string) => ({
  appOutDir, electronPlatformName: 'linux', arch: 1,
  packager: { executableName: 'agent-desk', appInfo: { productFilename: 'Agent Desk' } },
});

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fuses-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function fuses(path: string): Promise<Record<number, number>> {
  const { version: _version, ...states } = await getCurrentFuseWire(path);
  return states;
}

describe('afterPack: Electron fuses', () => {
  it('production: RunAsNode, NODE_OPTIONS and --inspect off; cookie encryption, asar integrity, asar-only on', async () => {
    const dir = tempDir();
    const binary = join(dir, 'agent-desk');
    fakeBinary(binary, [wire(STOCK)]);
    await afterPack(linux(dir), {});
    expect(await fuses(binary)).toEqual(PRODUCTION);
    // Only the wire changed: the bytes around it are the binary's own.
    const bytes = readFileSync(binary);
    expect(bytes.subarray(0, HEAD.length)).toEqual(HEAD);
    expect(bytes.subarray(bytes.length - TAIL.length)).toEqual(TAIL);
  });

  it('the test flavour differs from production only in keeping --inspect, which Playwright needs', async () => {
    const dir = tempDir();
    const binary = join(dir, 'agent-desk');
    fakeBinary(binary, [wire(STOCK)]);
    await afterPack(linux(dir), { AGENT_DESK_FUSES: 'test' });
    expect(await fuses(binary)).toEqual(TEST_FLAVOUR);
  });

  it('macOS: both slices of a universal binary, inside the framework of the .app', async () => {
    const dir = tempDir();
    const framework = join(dir, 'Agent Desk.app', 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework');
    fakeBinary(framework, [wire(STOCK), wire(STOCK)]);
    // x64: the ad-hoc re-signing (codesign) is for arm64 only, and there is no codesign here.
    await afterPack({ ...linux(dir), electronPlatformName: 'darwin', arch: 1 }, {});
    const bytes = readFileSync(framework);
    const second = bytes.lastIndexOf(SENTINEL);
    expect(second).toBeGreaterThan(bytes.indexOf(SENTINEL));
    expect([...bytes.subarray(second + SENTINEL.length + 2, second + SENTINEL.length + 2 + STOCK.length)]).toEqual(Object.values(PRODUCTION));
    expect(await fuses(framework)).toEqual(PRODUCTION);
  });

  it('a fuse this config does not know (a newer Electron) stops the build', async () => {
    const dir = tempDir();
    const binary = join(dir, 'agent-desk');
    fakeBinary(binary, [wire([...STOCK, ON])]);
    await expect(afterPack(linux(dir), {})).rejects.toThrow(/strictlyRequireAllFuses/);
  });

  it('a binary without the fuse sentinel stops the build', async () => {
    const dir = tempDir();
    fakeBinary(join(dir, 'agent-desk'), []);
    await expect(afterPack(linux(dir), {})).rejects.toThrow(/sentinel/);
  });

  it('AGENT_DESK_FUSES: production by default, and nothing but the two flavours', () => {
    expect(fuseFlavour({})).toBe('production');
    expect(fuseFlavour({ AGENT_DESK_FUSES: 'test' })).toBe('test');
    expect(() => fuseFlavour({ AGENT_DESK_FUSES: 'debug' })).toThrow(/AGENT_DESK_FUSES=debug/);
  });

  it('finds the binary where electron-builder puts it on each platform', () => {
    const base = { appOutDir: '/o', packager: { executableName: 'agent-desk', appInfo: { productFilename: 'Agent Desk' } } };
    expect(electronBinaryPath({ ...base, electronPlatformName: 'linux' })).toBe(join('/o', 'agent-desk'));
    expect(electronBinaryPath({ ...base, electronPlatformName: 'darwin' })).toBe(join('/o', 'Agent Desk.app'));
    expect(electronBinaryPath({ ...base, electronPlatformName: 'win32' })).toBe(join('/o', 'Agent Desk.exe'));
    expect(() => electronBinaryPath({ ...base, electronPlatformName: 'aix' })).toThrow(/aix/);
  });
});
