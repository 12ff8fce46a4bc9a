import type { Language } from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, pagesOf, useQueryState } from '../DataTable.tsx';
import { CustomerLink } from '../Facts.tsx';
import { keys } from '../query.ts';
import { formatTime } from '../text.ts';
import { Amounts } from './InviteLinks.tsx';
import { InvitesScreen } from './InvitesScreen.tsx';
import { type InviteText, useInviteText } from './invites.text.ts';

/** The server's page of payouts (the last page is shorter). */
const PAGE = 50;

type Payout = Awaited<ReturnType<typeof fetchPayouts>>[number];

const fetchPayouts = (before: string) => callAdmin('listInvitePayouts', { query: before ? { before } : {} });

/** The columns of the payouts: whose, which day, how much per asset, the ledger entry, when paid. */
function payoutColumns(p: InviteText['payouts'], language: Language): Column<Payout>[] {
  return [
    {
      key: 'inviter',
      header: p.inviter,
      cell: (r) => <CustomerLink of={{ customer: r.inviter, userId: r.inviterId }} />,
      sortValue: (r) => r.inviter,
    },
    {
      key: 'day',
      header: p.day,
      cell: (r) => <span dir="ltr">{r.day}</span>,
      sortValue: (r) => r.day,
    },
    { key: 'amounts', header: p.amounts, cell: (r) => <Amounts amounts={r.amounts} none="—" /> },
    {
      key: 'entry',
      header: p.entry,
      cell: (r) => (r.entryId === null ? '—' : <span dir="ltr">#{r.entryId}</span>),
      sortValue: (r) => r.entryId ?? 0,
    },
    {
      key: 'paidAt',
      header: p.paidAt,
      cell: (r) => (r.paidAt ? formatTime(language, r.paidAt) : p.notPaid),
      sortValue: (r) => r.paidAt ?? '',
    },
  ];
}

/**
 * Invite payouts (/admin/invites/payouts): one ledger entry per inviter and day, newest day first;
 * the next page starts after the last row shown (its day and inviter), so a day split across two
 * pages loses none of its payouts.
 */
export function InvitePayouts() {
  const { language } = useBackOffice();
  const p = useInviteText().payouts;
  const query = useInfiniteQuery({
    queryKey: keys.invitePayouts(language),
    queryFn: ({ pageParam }) => fetchPayouts(pageParam),
    initialPageParam: '',
    getNextPageParam: (last) => {
      const end = last.at(-1);
      return last.length === PAGE && end ? `${end.day}:${end.inviterId}` : undefined;
    },
  });
  const state = useQueryState(query);
  return (
    <InvitesScreen heading={p.heading}>
      <p className="muted">{p.intro}</p>
      <DataTable
        caption={p.heading}
        columns={payoutColumns(p, language)}
        rows={query.data?.pages.flat()}
        rowKey={(r) => `${r.inviterId}-${r.day}`}
        {...state}
        empty={p.empty}
        filterText={(r) => `${r.inviterId} ${r.inviter} ${r.day}`}
        {...pagesOf(query)}
        testId="invite-payouts"
      />
    </InvitesScreen>
  );
}
