import {
  ASSET_SCALES,
  adminCalls,
  BOOKS,
  type Book,
  type EarnProductAdmin,
  earnFundBody,
  parseMinor,
} from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { allowed, callAdmin, failureMessage, StaffApiError } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, plain } from '../DataTable.tsx';
import { Field, SelectField, SubmitRow } from '../Field.tsx';
import { keys } from '../query.ts';
import { addAmounts } from '../rates.ts';
import { fill } from '../text.ts';
import { Money, useEarnText } from './EarnProducts.tsx';

type BookFigures = EarnProductAdmin['books'][number];

/**
 * A product's yield reserve: per book what is free for new investments beside the interest set
 * aside for current investors, and (finance and admin) a form that funds it by an audited ledger
 * transfer, showing the reserve after the amount typed before it is sent.
 */
export function ReserveFunding({ item }: { item: EarnProductAdmin }) {
  const { text, language, staff } = useBackOffice();
  const t = useEarnText();
  const client = useQueryClient();
  const headingId = useId();
  const formHeadingId = useId();
  const { product } = item;
  const asset = product.asset;
  const [book, setBook] = useState<Book>('live');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [done, setDone] = useState('');
  const fund = useMutation({
    mutationFn: (body: { productId: number; book: Book; amount: string; reason: string }) =>
      callAdmin('fundEarnReserve', { body }),
    onSuccess: async (saved, body) => {
      // The answer is the product as it is now: shown at once, the rest of earn reloaded.
      client.setQueryData<EarnProductAdmin[]>(keys.earnProducts(language), (rows) =>
        rows?.map((r) => (r.product.id === saved.product.id ? saved : r)),
      );
      await client.invalidateQueries({ queryKey: keys.earn, refetchType: 'none' });
      const after = saved.books.find((b) => b.book === body.book);
      setDone(
        fill(t.funded, {
          amount: plain(body.amount),
          asset,
          book: t.books[body.book],
          free: `${plain(after?.reserveFree ?? '0')} ${asset}`,
          reserved: `${plain(after?.reservedInterest ?? '0')} ${asset}`,
        }),
      );
      setAmount('');
      setReason('');
    },
    onError: (error) => {
      if (error instanceof StaffApiError && Array.isArray(error.data))
        setInvalid(new Set((error.data as { path: string }[]).map((i) => i.path.split('.')[0] ?? '')));
    },
  });
  const mayFund = allowed(staff, adminCalls.fundEarnReserve);
  const current = item.books.find((b) => b.book === book);
  const typed = amount.trim();
  const validAmount = (() => {
    try {
      return parseMinor(typed, ASSET_SCALES[asset]) > 0n;
    } catch {
      return false;
    }
  })();
  const freeAfter = current && validAmount ? addAmounts(asset, current.reserveFree, typed) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    const body = { productId: product.id, book, amount: typed, reason: reason.trim() };
    const checked = earnFundBody.safeParse(body);
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
  const columns: Column<BookFigures>[] = [
    { key: 'book', header: t.book, cell: (b) => t.books[b.book] },
    { key: 'free', header: t.reserveFree, cell: (b) => <Money value={b.reserveFree} asset={asset} /> },
    {
      key: 'reserved',
      header: t.reservedInterest,
      cell: (b) => <Money value={b.reservedInterest} asset={asset} />,
    },
    { key: 'invested', header: t.invested, cell: (b) => <Money value={b.invested} asset={asset} /> },
    { key: 'investments', header: t.investments, cell: (b) => b.investments },
  ];
  return (
    <section className="earn-section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t.reserveHeading}</h3>
      <p className="muted">{t.reserveIntro}</p>
      <DataTable
        caption={t.reserveHeading}
        columns={columns}
        rows={item.books}
        rowKey={(b) => b.book}
        loading={false}
        failure=""
        empty="—"
        testId="earn-reserve"
      />
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      {mayFund ? (
        <form className="earn-fund" aria-labelledby={formHeadingId} onSubmit={submit} noValidate>
          <h4 id={formHeadingId}>{t.fundHeading}</h4>
          <div className="earn-fields">
            <SelectField
              label={t.book}
              name="book"
              value={book}
              onChange={(e) => setBook(e.target.value as Book)}
              options={BOOKS.map((b) => ({ value: b, label: t.books[b] }))}
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
            <div className="earn-coverage" aria-live="polite">
              <h5>{t.coverage}</h5>
              <table>
                <caption className="visually-hidden">{`${t.coverage} (${t.books[book]})`}</caption>
                <thead>
                  <tr>
                    <td />
                    <th scope="col">{t.nowFigure}</th>
                    <th scope="col">{t.afterFunding}</th>
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    <th scope="row">{t.reserveFree}</th>
                    <td>
                      <Money value={current.reserveFree} asset={asset} />
                    </td>
                    <td data-testid="free-after">
                      {freeAfter === null ? '—' : <Money value={freeAfter} asset={asset} />}
                    </td>
                  </tr>
                  <tr>
                    <th scope="row">{t.reservedShort}</th>
                    <td>
                      <Money value={current.reservedInterest} asset={asset} />
                    </td>
                    <td>
                      <Money value={current.reservedInterest} asset={asset} />
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
