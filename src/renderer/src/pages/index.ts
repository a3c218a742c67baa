import type { ComponentType } from 'react';
import { DashboardPage } from './Dashboard';

/**
 * The panel's pages by route pattern (AGENT.md, Page context). A page reads its own params and
 * query from the route store.
 */
export interface PageEntry {
  pattern: string;
  title: string;
  /** Shown in the navigation when set. */
  nav?: string;
  Component: ComponentType<{ params: Record<string, string> }>;
}

export const PAGES: PageEntry[] = [
  { pattern: '/agent/dashboard', title: 'Dashboard', nav: 'Dashboard', Component: DashboardPage },
];
