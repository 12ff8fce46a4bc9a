import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useBackOffice } from '../context.ts';
import { Alert } from '../Field.tsx';
import { Screen } from '../KitScreen.tsx';
import { useInviteText } from './invites.text.ts';
import '../kit.css';
import './invites.css';

/** The programme's three parts, each its own URL under the one menu entry. */
function Parts() {
  const t = useInviteText();
  return (
    <nav className="parts-nav" aria-label={t.parts.label}>
      <ul>
        <li>
          <NavLink to="/invites" end>
            {t.parts.settings}
          </NavLink>
        </li>
        <li>
          <NavLink to="/invites/links">{t.parts.links}</NavLink>
        </li>
        <li>
          <NavLink to="/invites/payouts">{t.parts.payouts}</NavLink>
        </li>
      </ul>
    </nav>
  );
}

/** A screen of the invite programme: its heading, the parts' links (the current one marked), then the part. */
export function InvitesScreen({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <Screen heading={heading}>
      <Parts />
      {children}
    </Screen>
  );
}

/** What a view shows before its data is there: the failure with a retry, or that it is loading. */
export function Loading({ failure, onRetry }: { failure: string; onRetry: () => void }) {
  const { text } = useBackOffice();
  if (failure)
    return (
      <div className="table-state">
        <Alert message={failure} />
        <button type="button" onClick={onRetry}>
          {text.table.retry}
        </button>
      </div>
    );
  return (
    <p role="status" className="muted">
      {text.loading}
    </p>
  );
}
