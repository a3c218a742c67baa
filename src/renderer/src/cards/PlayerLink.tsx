import { Link } from '../components/Link';
import { playerHref } from './shared';

/** A player's name, linking to their page when the id is well formed. The name is text only. */
export function PlayerLink({ id, name }: { id: string; name: string }) {
  const href = playerHref(id);
  return href ? <Link to={href}>{name}</Link> : <>{name}</>;
}
