import type { ReactNode } from 'react';
import { Link } from './Link';

/** A page for something that is not there (or not the user's to see): what, why, and a way back. */
export function NotFound({ title, children, back }: { title: string; children?: ReactNode; back: { to: string; label: string } }) {
  return (
    <section className="not-found" aria-labelledby="not-found-title" data-testid="not-found">
      <h1 id="not-found-title">{title}</h1>
      {children && <p className="muted">{children}</p>}
      <p><Link to={back.to} data-testid="not-found-back">{back.label}</Link></p>
    </section>
  );
}
