/**
 * The one thing the preload exposes to the renderer (`window.deskBridge`): a fetch-shaped call
 * that main answers through the desk router after checking which frame sent it.
 */
export interface DeskBridge {
  fetch(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; headers: Record<string, string>; body: string }>;
}
