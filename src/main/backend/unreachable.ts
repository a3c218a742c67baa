import { TRPCClientError } from '@trpc/client';

/**
 * True when a backend call got no answer from the backend: a refused or reset connection, DNS,
 * the remote client's per-call deadline, or a proxy's error page (none of these carries a tRPC
 * error shape), or the backend saying it is unavailable. The desk reports all of them as
 * SERVICE_UNAVAILABLE, which the renderer shows as "backend unreachable — retrying".
 */
export function isBackendUnreachable(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const code = (error.data as { code?: unknown } | undefined)?.code;
  return typeof code !== 'string' || code === 'SERVICE_UNAVAILABLE' || code === 'BAD_GATEWAY' || code === 'GATEWAY_TIMEOUT';
}
