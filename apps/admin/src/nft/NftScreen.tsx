import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { Screen } from '../KitScreen.tsx';
import { useNftText } from './nft.text.ts';
import '../kit.css';
import './nft.css';

/** The NFT area's parts, each its own URL under the one menu entry (the current one marked). */
function Parts() {
  const t = useNftText();
  const parts = [
    { to: '/nft', text: t.parts.drops, end: true },
    { to: '/nft/new', text: t.parts.create, end: false },
    { to: '/nft/auctions', text: t.parts.auctions, end: false },
    { to: '/nft/charity', text: t.parts.charity, end: false },
    { to: '/nft/log', text: t.parts.log, end: false },
  ];
  return (
    <nav className="parts-nav" aria-label={t.parts.label}>
      <ul>
        {parts.map((p) => (
          <li key={p.to}>
            <NavLink to={p.to} end={p.end}>
              {p.text}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A screen of the NFT area: its heading, the parts' links, then the part. */
export function NftScreen({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <Screen heading={heading}>
      <Parts />
      {children}
    </Screen>
  );
}
