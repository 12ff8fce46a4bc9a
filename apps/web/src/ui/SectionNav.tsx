import { NavLink } from 'react-router';
import './section-nav.css';

/**
 * The links between the screens of one product (earn, loans, smart plans): pills in a row that
 * wraps, the current one bold, outlined in the brand colour and marked aria-current.
 */
export function SectionNav({
  label,
  links,
}: {
  label: string;
  links: readonly (readonly [string, string])[];
}) {
  return (
    <nav className="section-nav" aria-label={label}>
      <ul>
        {links.map(([to, text]) => (
          <li key={to}>
            <NavLink to={to} end>
              {text}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
