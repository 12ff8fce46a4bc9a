import {
  ASSET_SCALES,
  adminCalls,
  LOAN_ASSETS,
  type LoanPool,
  loanPoolFundBody,
  parseMinor,
} from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { allowed, callAdmin, failureMessage, StaffApiError } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, plain } from '../DataTable.tsx';
import { Field, SelectField, SubmitRow } from '../Field.tsx';
import { keys } from '../query.ts';
import { addAmounts } from '../rates.ts';
import { fill } from '../text.ts';
import { Money, useLoanText } from './LoanProducts.tsx';

type Asset = (typeof LOAN_ASSETS)[number];

/** A fresh id for one funding: a repeated click (or a retry of a lost answer) funds once. */
const newRequestId = () => crypto.randomUUID();

/**
 * The lending pools (/admin/loans/pools): per asset what is free to lend, the principal lent out,
 * the interest still to accrue and what was earned; finance and admin fund a pool by an audited
 * ledger transfer, with the pool balance after the amount shown before it is sent.
 */
export function LoanPools() {
  const { text, language, staff } = useBackOffice();
  const t = useLoanText();
  const client = useQueryClient();
  const headingId = useId();
  const formHeadingId = useId();
  const query = useQuery({ queryKey: keys.loanPools(language), queryFn: () => callAdmin('listLoanPools') });
  const [asset, setAsset] = useState<Asset>('USDT');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [done, setDone] = useState('');
  const fund = useMutation({
    mutationFn: (body: { asset: Asset; amount: string; reason: string; requestId: string }) =>
      callAdmin('fundLoanPool', { body }),
    onSuccess: async (saved, body) => {
      // The answer is the pool as it is now: shown at once, the rest of loans reloaded.
      client.setQueryData<LoanPool[]>(keys.loanPools(language), (rows) =>
        rows?.map((r) => (r.asset === saved.asset ? saved : r)),
      );
      await client.invalidateQueries({ queryKey: keys.loans, refetchType: 'none' });
      setDone(
        fill(t.funded, {
          amount: plain(body.amount),
          asset: body.asset,
          available: `${plain(saved.available)} ${saved.asset}`,
        }),
      );
      setAmount('');
      setReason('');
      setRequestId(newRequestId());
    },
    onError: (error) => {
      if (error instanceof StaffApiError && Array.isArray(error.data))
        setInvalid(new Set((error.data as { path: string }[]).map((i) => i.path.split('.')[0] ?? '')));
    },
  });
  const mayFund = allowed(staff, adminCalls.fundLoanPool);
  const current = query.data?.find((p) => p.asset === asset);
  const typed = amount.trim();
  const validAmount = (() => {
    try {
      return parseMinor(typed, ASSET_SCALES[asset]) > 0n;
    } catch {
      return false;
    }
  })();
  const after = current && validAmount ? addAmounts(asset, current.available, typed) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    const body = { asset, amount: typed, reason: reason.trim(), requestId };
    const checked = loanPoolFundBody.safeParse(body);
    const wrong = new Set<string>();
    if (!checked.success) for (const issue of checked.error.issues) wrong.add(String(issue.path[0] ?? ''));
    if (!validAmount) wrong.add('amount');
    setInvalid(wrong);
    if (wrong.size > 0) {
      const form = event.currentTarget as HTMLFormElement;
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    fund.mutate(body);
  };
  const columns: Column<LoanPool>[] = [
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
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {t.poolsHeading}
      </h2>
      <p className="muted">{t.poolsIntro}</p>
      <DataTable
        caption={t.poolsHeading}
        columns={columns}
        rows={query.data}
        rowKey={(p) => p.asset}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={t.poolsEmpty}
        testId="loan-pools"
      />
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      {!mayFund ? (
        <p className="muted">{t.readOnlyPools}</p>
      ) : query.data ? (
        <form className="loan-fund" aria-labelledby={formHeadingId} onSubmit={submit} noValidate>
          <h3 id={formHeadingId}>{t.fundHeading}</h3>
          <p className="muted">{t.fundIntro}</p>
          <div className="loan-fields">
            <SelectField
              label={t.asset}
              name="asset"
              value={asset}
              onChange={(e) => {
                setAsset(e.target.value as Asset);
                setRequestId(newRequestId());
              }}
              options={LOAN_ASSETS.map((a) => ({ value: a, label: a }))}
            />
            <Field
              label={fill(t.amount, { asset })}
              name="amount"
              dir="ltr"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              error={invalid.has('amount') ? t.checkValue : undefined}
              onChange={(e) => setAmount(e.target.value)}
            />
            <Field
              label={t.reason}
              name="reason"
              hint={t.reasonHint}
              maxLength={200}
              value={reason}
              error={invalid.has('reason') ? text.error.reasonShort : undefined}
              onChange={(e) => setReason(e.target.value)}
            />
          </div>
          {current ? (
            <div className="loan-preview" aria-live="polite">
              <table>
                <caption>{`${t.preview} (${asset})`}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.nowFigure}</th>
                    <th scope="col">{t.afterFunding}</th>
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <td>
                      <Money value={current.available} asset={asset} />
                    </td>
                    <td data-testid="pool-after">
                      {after === null ? '—' : <Money value={after} asset={asset} />}
                    </td>
                  </tr>
                </tbody>
              </table>
            </div>
          ) : null}
          <SubmitRow
            failure={fund.isError ? failureMessage(fund.error, text.error.generic) : ''}
            busy={fund.isPending}
            label={t.fund}
          />
        </form>
      ) : null}
    </section>
  );
}
