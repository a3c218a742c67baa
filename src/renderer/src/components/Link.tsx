import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { useRoute } from '../lib/route';

/** A real link that moves within the panel without reloading; modified clicks keep the browser's meaning. */
export function Link({ to, children, ...rest }: { to: string; children: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'onClick'>) {
  const navigate = useRoute((s) => s.navigate);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={onClick} {...rest}>{children}</a>;
}
