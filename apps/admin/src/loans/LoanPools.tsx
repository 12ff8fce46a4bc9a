import { adminCalls, LOAN_ASSETS, type LoanPool, loanPoolFundBody } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { amountText, shownAmount } from '../amount.ts';
import { allowed, callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import type { Column } from '../DataTable.tsx';
import { AccountFunding, fundingTexts, NowAfter } from '../KitFunding.tsx';
import { Money } from '../KitProductList.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { useLoanText } from './LoanProducts.tsx';

type Asset = (typeof LOAN_ASSETS)[number];

/** The pools' columns: what is free to lend, lent out, still to accrue and earned, the loans. */
function poolColumns(t: ReturnType<typeof useLoanText>): Column<LoanPool>[] {
  return [
    { key: 'asset', header: t.asset, cell: (p) => <strong>{p.asset}</strong>, sortValue: (p) => p.asset },
    { key: 'available', header: t.available, cell: (p) => <Money value={p.available} asset={p.asset} /> },
    { key: 'lent', header: t.lent, cell: (p) => <Money value={p.lent} asset={p.asset} /> },
    { key: 'unearned', header: t.unearned, cell: (p) => <Money value={p.unearned} asset={p.asset} /> },
    { key: 'income', header: t.income, cell: (p) => <Money value={p.income} asset={p.asset} /> },
    { key: 'open', header: t.openLoans, cell: (p) => p.openLoans, sortValue: (p) => p.openLoans },
    {
      key: 'overdue',
      header: t.overdueLoans,
      cell: (p) => (p.overdueLoans > 0 ? <strong className="overdue">{p.overdueLoans}</strong> : 0),
      sortValue: (p) => p.overdueLoans,
    },
  ];
}

/** The pool's balance now and after the amount typed. */
function PoolPreview({
  t,
  pool,
  after,
}: {
  t: ReturnType<typeof useLoanText>;
  pool: LoanPool;
  after: string | null;
}) {
  return (
    <NowAfter
      caption={`${t.preview} (${pool.asset})`}
      texts={t}
      rows={[
        {
          now: <Money value={pool.available} asset={pool.asset} />,
          after: after === null ? '—' : <Money value={after} asset={pool.asset} />,
          testId: 'pool-after',
        },
      ]}
    />
  );
}

/**
 * The lending pools (/admin/loans/pools): per asset what is free to lend, the principal lent out,
 * the interest still to accrue and what was earned; finance and admin fund a pool by an audited
 * ledger transfer, with the pool balance after the amount shown before it is sent.
 */
export function LoanPools() {
  const { text, language, staff } = useBackOffice();
  const t = useLoanText();
  const client = useQueryClient();
  const query = useQuery({ queryKey: keys.loanPools(language), queryFn: () => callAdmin('listLoanPools') });
  const [asset, setAsset] = useState<Asset>('USDT');
  const current = query.data?.find((p) => p.asset === asset);
  return (
    <AccountFunding
      page
      texts={fundingTexts(t, {
        heading: t.poolsHeading,
        intro: t.poolsIntro,
        empty: t.poolsEmpty,
        readOnly: t.readOnlyPools,
        fundIntro: t.fundIntro,
      })}
      table={{
        columns: poolColumns(t),
        rows: query.data,
        rowKey: (p) => p.asset,
        testId: 'loan-pools',
        loading: query.isPending,
        failure: query.isError ? failureMessage(query.error, text.error.generic) : '',
        onRetry: () => void query.refetch(),
      }}
      mayFund={allowed(staff, adminCalls.fundLoanPool)}
      ready={query.data !== undefined}
      choice={{
        label: t.asset,
        name: 'asset',
        value: asset,
        options: LOAN_ASSETS.map((a) => ({ value: a, label: a })),
        onChange: (value) => setAsset(value as Asset),
      }}
      asset={asset}
      base={current?.available}
      preview={(after) => (current ? <PoolPreview t={t} pool={current} after={after} /> : null)}
      body={({ amount, reason, requestId }) => ({ asset, amount, reason, requestId })}
      schema={loanPoolFundBody}
      send={(body) => callAdmin('fundLoanPool', { body })}
      funded={async (saved, body) => {
        // The answer is the pool as it is now: shown at once, the rest of loans reloaded.
        client.setQueryData<LoanPool[]>(keys.loanPools(language), (rows) =>
          rows?.map((r) => (r.asset === saved.asset ? saved : r)),
        );
        await client.invalidateQueries({ queryKey: keys.loans, refetchType: 'none' });
        return fill(t.funded, {
          amount: shownAmount(language, body.amount, body.asset),
          asset: body.asset,
          available: amountText(language, saved.available, saved.asset),
        });
      }}
    />
  );
}
