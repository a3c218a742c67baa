import type { ComponentType } from 'react';
import { ApprovalsPage } from './Approvals';
import { AuditPage } from './Audit';
import { BetsPage } from './Bets';
import { DashboardPage } from './Dashboard';
import { DownlinePage } from './Downline';
import { ExposurePage } from './Exposure';
import { PlayerPage } from './Player';
import { PnlPage } from './Pnl';
import { ReportsPage } from './Reports';
import { SettingsPage } from './Settings';
import { SettlementsPage } from './Settlements';
import { StatementPage } from './Statement';

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
  { pattern: '/agent/downline', title: 'Downline', nav: 'Downline', Component: DownlinePage },
  { pattern: '/agent/players/:id', title: 'Player', Component: PlayerPage },
  // The same page by query (`/agent/player?id=…`), as links from elsewhere may write it.
  { pattern: '/agent/player', title: 'Player', Component: PlayerPage },
  { pattern: '/agent/bets', title: 'Bets', nav: 'Bets', Component: BetsPage },
  { pattern: '/agent/exposure', title: 'Exposure', nav: 'Exposure', Component: ExposurePage },
  { pattern: '/agent/pnl', title: 'PnL', nav: 'PnL', Component: PnlPage },
  { pattern: '/agent/settlements', title: 'Settlements', nav: 'Settlements', Component: SettlementsPage },
  { pattern: '/agent/statement', title: 'Statement', nav: 'Statement', Component: StatementPage },
  { pattern: '/agent/reports', title: 'Reports', nav: 'Reports', Component: ReportsPage },
  { pattern: '/agent/approvals', title: 'Approvals', nav: 'Approvals', Component: ApprovalsPage },
  { pattern: '/agent/audit', title: 'Audit', nav: 'Audit', Component: AuditPage },
  { pattern: '/agent/settings', title: 'Settings', nav: 'Settings', Component: SettingsPage },
];
