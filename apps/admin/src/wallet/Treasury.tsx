import { interpolate, type TreasuryRow } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, Money } from '../DataTable.tsx';
import { keys } from '../query.ts';
import { useWalletText } from './wallet.text.ts';

/** The treasury's columns: every amount under the display rule of the customer app and notices. */
function useTreasuryColumns(): Column<TreasuryRow>[] {
  const { language } = useBackOffice();
  const w = useWalletText();
  // Amounts under the display rule of the customer app and notices (DataTable's Money), in the reader's numbers.
  const money = (value: string, asset: string) => <Money value={value} asset={asset} />;
  return [
    { key: 'asset', header: w.asset, cell: (r) => r.asset, sortValue: (r) => r.asset },
    {
      key: 'hot',
      header: w.hotWallet,
      cell: (r) => (r.hotWallet === null ? w.noNode : money(r.hotWallet, r.asset)),
    },
    {
      key: 'deposits',
      header: w.depositAddresses,
      cell: (r) =>
        r.depositAddresses === null ? (
          w.noNode
        ) : (
          <>
            {money(r.depositAddresses, r.asset)}
            <br />
            <span className="muted small">
              {interpolate(w.depositAddressCount, { count: r.depositAddressCount }, language)}
            </span>
          </>
        ),
    },
    {
      key: 'liabilities',
      header: w.liabilities,
      cell: (r) => money(r.liabilities, r.asset),
    },
    {
      key: 'outgoing',
      header: w.outgoing,
      cell: (r) => money(r.outgoing, r.asset),
    },
    {
      key: 'address',
      header: w.hotWalletAddress,
      cell: (r) =>
        r.hotWalletAddress ? (
          <code dir="ltr" className="wallet-code">
            {r.hotWalletAddress}
          </code>
        ) : (
          '—'
        ),
    },
  ];
}

/**
 * Treasury (/admin/treasury): per asset, the hot wallet on chain beside what sits at customers'
 * deposit addresses (never swept), what customers hold and what is leaving.
 */
export function Treasury() {
  const { text, language } = useBackOffice();
  const w = useWalletText();
  const headingId = useId();
  const query = useQuery({
    queryKey: keys.treasuryRows(language),
    queryFn: () => callAdmin('treasury'),
    refetchInterval: 30_000,
  });
  const columns = useTreasuryColumns();
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {w.treasuryHeading}
      </h2>
      <p className="muted">{w.treasuryIntro}</p>
      <DataTable
        caption={w.treasuryHeading}
        columns={columns}
        rows={query.data}
        rowKey={(r) => r.asset}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={w.treasuryEmpty}
        testId="treasury-table"
      />
    </section>
  );
}
