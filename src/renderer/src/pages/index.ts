import { type ComponentType, createElement, lazy, useState } from 'react';

type PageComponent = ComponentType<{ params: Record<string, string> }>;

/**
 * A page's module, loaded the first time its route is drawn: the login page (all a signed-out
 * user sees) does not wait for the code of every page behind it. Each is a chunk of its own; the
 * app draws it inside Suspense with a loading state (App.tsx). Once the module has come (`preload`,
 * or an earlier draw) the page is drawn at once: a lazy component suspends on its first draw even
 * when its module is in, and React holds back what a boundary reveals for up to 300 ms.
 */
function onDemand<M>(load: () => Promise<M>, pick: (module: M) => PageComponent): PageComponent & { preload(): Promise<unknown> } {
  let loaded: PageComponent | null = null;
  const preload = () => load().then((module) => { loaded = pick(module); return module; });
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  // Chosen once per mount: a page drawn through `Lazy` stays so, or it would be drawn anew (its state lost).
  const Page: PageComponent = (props) => createElement(useState(() => loaded ?? Lazy)[0], props);
  return Object.assign(Page, { preload });
}

const DashboardPage = onDemand(() => import('./Dashboard'), (m) => m.DashboardPage);
const DownlinePage = onDemand(() => import('./Downline'), (m) => m.DownlinePage);
const PlayerPage = onDemand(() => import('./Player'), (m) => m.PlayerPage);
const BetsPage = onDemand(() => import('./Bets'), (m) => m.BetsPage);
const ExposurePage = onDemand(() => import('./Exposure'), (m) => m.ExposurePage);
const PnlPage = onDemand(() => import('./Pnl'), (m) => m.PnlPage);
const SettlementsPage = onDemand(() => import('./Settlements'), (m) => m.SettlementsPage);
const StatementPage = onDemand(() => import('./Statement'), (m) => m.StatementPage);
const ReportsPage = onDemand(() => import('./Reports'), (m) => m.ReportsPage);
const ApprovalsPage = onDemand(() => import('./Approvals'), (m) => m.ApprovalsPage);
const AuditPage = onDemand(() => import('./Audit'), (m) => m.AuditPage);
const SettingsPage = onDemand(() => import('./Settings'), (m) => m.SettingsPage);

/**
 * The panel's pages by route pattern (AGENT.md, Page context). A page reads its own params and
 * query from the route store.
 */
export interface PageEntry {
  pattern: string;
  title: string;
  /** Shown in the navigation when set. */
  nav?: string;
  /** `preload` fetches the page's code ahead of its first draw (the app does so while the login page waits). */
  Component: PageComponent & { preload(): Promise<unknown> };
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
