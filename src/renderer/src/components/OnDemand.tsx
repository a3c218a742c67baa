import { Component, type ReactNode } from 'react';

/** What stands in for a page while its code loads: announced, as every loading state here is. */
export function PageLoading() {
  return <p className="state" role="status" data-testid="page-loading">Loading…</p>;
}

/**
 * Around code loaded on demand (a page, the assistant's panel). Its chunk can fail to arrive: the
 * shell restarted with a new build, whose files have other names, or the connection dropped. The
 * rest of the desk stays up and the user is told what to do, instead of the whole app unmounting.
 */
export class LoadFailed extends Component<{ what: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="state failed" role="alert" data-testid="load-failed">
        <p>{this.props.what} could not be loaded.</p>
        <button type="button" onClick={() => window.location.reload()}>Reload</button>
      </div>
    );
  }
}
