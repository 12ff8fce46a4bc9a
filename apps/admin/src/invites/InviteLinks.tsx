import { adminCalls, type InviteLinkAdmin, type Language } from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { allowed, callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import {
  type Column,
  DataTable,
  Money,
  pagesOf,
  textColumn,
  timeColumn,
  useQueryState,
} from '../DataTable.tsx';
import { CustomerLink } from '../Facts.tsx';
import { Done, Field } from '../Field.tsx';
import { keys } from '../query.ts';
import { fill, formatTime } from '../text.ts';
import { FreezeDialog, linkNames } from './FreezeDialog.tsx';
import { InvitesScreen } from './InvitesScreen.tsx';
import { type InviteText, useInviteText } from './invites.text.ts';

/** The server's page of links (the last page is shorter). */
const PAGE = 50;

/** The links found for `search` (all when blank), newest first; the next page starts below the last id. */
function useLinks(search: string) {
  const { language } = useBackOffice();
  return useInfiniteQuery({
    queryKey: keys.inviteLinks(language, search),
    queryFn: ({ pageParam }) =>
      callAdmin('listInviteLinks', {
        query: { ...(search ? { search } : {}), ...(pageParam ? { before: pageParam } : {}) },
      }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.length === PAGE ? String(last.at(-1)?.id ?? '') : undefined),
  });
}

/** Amounts per asset, one a line; `none` when there is none. */
export function Amounts({ amounts, none }: { amounts: { asset: string; amount: string }[]; none: string }) {
  if (amounts.length === 0) return <>{none}</>;
  return (
    <ul className="invite-lines">
      {amounts.map((a) => (
        <li key={a.asset}>
          <Money value={a.amount} asset={a.asset} />
        </li>
      ))}
    </ul>
  );
}

/** A link's freeze: whether it is frozen and why, then (for admins) the button that changes it. */
function FreezeCell({
  link: r,
  onFreeze,
}: {
  link: InviteLinkAdmin;
  onFreeze: ((link: InviteLinkAdmin) => void) | null;
}) {
  const l = useInviteText().links;
  return (
    <div className="kit-stack">
      {r.frozen ? (
        <strong>{fill(l.frozenValue, { reason: r.frozenReason ?? '' })}</strong>
      ) : (
        <span>{l.notFrozen}</span>
      )}
      {onFreeze ? (
        <button
          type="button"
          className={r.frozen ? undefined : 'danger'}
          aria-label={fill(r.frozen ? l.unfreezeLabel : l.freezeLabel, linkNames(r))}
          onClick={() => onFreeze(r)}
        >
          {r.frozen ? l.unfreeze : l.freeze}
        </button>
      ) : null}
    </div>
  );
}

/** The columns of the links: who, the friend's state and times, flags, what was paid, the freeze. */
function linkColumns(
  t: InviteText,
  language: Language,
  onFreeze: ((link: InviteLinkAdmin) => void) | null,
): Column<InviteLinkAdmin>[] {
  const l = t.links;
  return [
    textColumn('id', l.id, (r) => r.id),
    {
      key: 'inviter',
      header: l.inviter,
      cell: (r) => <CustomerLink of={{ customer: r.inviter, userId: r.inviterId }} />,
      sortValue: (r) => r.inviter,
    },
    {
      key: 'friend',
      header: l.friend,
      cell: (r) => <CustomerLink of={{ customer: r.friend, userId: r.friendId }} />,
      sortValue: (r) => r.friend,
    },
    { key: 'state', header: l.state, cell: (r) => t.states[r.state], sortValue: (r) => t.states[r.state] },
    timeColumn('registered', l.registered, language, (r) => r.registeredAt),
    {
      key: 'qualified',
      header: l.qualified,
      cell: (r) => (r.qualifiedAt ? formatTime(language, r.qualifiedAt) : l.notYet),
      sortValue: (r) => r.qualifiedAt ?? '',
    },
    {
      key: 'flags',
      header: l.flags,
      cell: (r) =>
        r.flags.length === 0 ? (
          l.noFlags
        ) : (
          <ul className="invite-lines">
            {r.flags.map((f) => (
              <li key={f}>{t.reasons[f]}</li>
            ))}
          </ul>
        ),
      sortValue: (r) => r.flags.length,
    },
    { key: 'paid', header: l.paid, cell: (r) => <Amounts amounts={r.paid} none={l.nothingPaid} /> },
    {
      key: 'frozen',
      header: l.frozen,
      cell: (r) => <FreezeCell link={r} onFreeze={onFreeze} />,
      sortValue: (r) => (r.frozen ? 1 : 0),
    },
  ];
}

/** The search by an inviter's or a friend's id, username or email: kept in the URL (`q`). */
function LinkSearch({ q, onSame }: { q: string; onSame: () => void }) {
  const l = useInviteText().links;
  const [, setParams] = useSearchParams();
  const [draft, setDraft] = useState(q);
  return (
    <form
      className="search"
      onSubmit={(event) => {
        event.preventDefault();
        const next = draft.trim();
        setParams(next ? { q: next } : {});
        if (next === q) onSame();
      }}
    >
      <Field
        label={l.searchLabel}
        type="search"
        value={draft}
        maxLength={100}
        onChange={(e) => setDraft(e.target.value)}
      />
      <button type="submit" className="primary">
        {l.search}
      </button>
      {q ? (
        <button
          type="button"
          onClick={() => {
            setDraft('');
            setParams({});
          }}
        >
          {l.clear}
        </button>
      ) : null}
    </form>
  );
}

/**
 * Invite links (/admin/invites/links): search by inviter or friend; newest first, a page at a time;
 * each link's friend state, flags, freeze and what was paid. Admins freeze or unfreeze a link with
 * a reason, confirmed in a dialog (audited by the server); finance reads.
 */
export function InviteLinks() {
  const { language, staff } = useBackOffice();
  const t = useInviteText();
  const l = t.links;
  const [params] = useSearchParams();
  const q = params.get('q') ?? '';
  const query = useLinks(q);
  const state = useQueryState(query);
  const [freezing, setFreezing] = useState<InviteLinkAdmin | null>(null);
  const [done, setDone] = useState('');
  const mayFreeze = allowed(staff, adminCalls.freezeInviteLink);
  const onFreeze = mayFreeze
    ? (link: InviteLinkAdmin) => {
        setDone('');
        setFreezing(link);
      }
    : null;
  return (
    <InvitesScreen heading={l.heading}>
      <p className="muted">{l.intro}</p>
      {mayFreeze ? null : <p className="muted">{l.readOnly}</p>}
      <LinkSearch key={q} q={q} onSame={() => void query.refetch()} />
      <Done message={done} />
      <DataTable
        caption={l.heading}
        columns={linkColumns(t, language, onFreeze)}
        rows={query.data?.pages.flat()}
        rowKey={(r) => r.id}
        {...state}
        empty={q ? l.emptySearch : l.empty}
        {...pagesOf(query)}
        testId="invite-links"
      />
      {freezing && mayFreeze ? (
        <FreezeDialog link={freezing} onClose={() => setFreezing(null)} onDone={setDone} />
      ) : null}
    </InvitesScreen>
  );
}
