// Types for after-pack.mjs, which stays plain JavaScript because electron-builder loads it as is.
import type { FuseV1Options } from '@electron/fuses';

export declare const FUSE_FLAVOURS: readonly ['production', 'test'];
export type FuseFlavour = (typeof FUSE_FLAVOURS)[number];

export declare function fuseSettings(flavour: FuseFlavour): Record<FuseV1Options, boolean>;
export declare function fuseFlavour(env: NodeJS.ProcessEnv): FuseFlavour;

export interface AfterPackContextLike {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: { executableName?: string; appInfo: { productFilename: string } };
}

export declare function electronBinaryPath(context: Omit<AfterPackContextLike, 'arch'>): string;
export declare function afterPack(context: AfterPackContextLike, env?: NodeJS.ProcessEnv): Promise<void>;
export default afterPack;
