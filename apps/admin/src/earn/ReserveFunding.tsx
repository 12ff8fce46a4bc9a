import { adminCalls, BOOKS, type Book, type EarnProductAdmin, earnFundBody } from '@swx/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { amountText, shownAmount } from '../amount.ts';
import { allowed, callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import type { Column } from '../DataTable.tsx';
import { AccountFunding, fundingTexts, NowAfter } from '../KitFunding.tsx';
import { Money } from '../KitProductList.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { useEarnText } from './EarnProducts.tsx';
import type { EarnText } from './earn.text.ts';

type BookFigures = EarnProductAdmin['books'][number];

/** Per book: the reserve free, the interest reserved, what is invested and in how many investments. */
function bookColumns(t: EarnText, asset: string): Column<BookFigures>[] {
  return [
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
}

/** The book's reserve now and after the amount typed; the interest reserved stays. */
function Coverage({
  t,
  asset,
  book,
  current,
  after,
}: {
  t: EarnText;
  asset: string;
  book: Book;
  current: BookFigures;
  after: string | null;
}) {
  return (
    <NowAfter
      title={t.coverage}
      caption={`${t.coverage} (${t.books[book]})`}
      texts={t}
      rows={[
        {
          label: t.reserveFree,
          now: <Money value={current.reserveFree} asset={asset} />,
          after: after === null ? '—' : <Money value={after} asset={asset} />,
          testId: 'free-after',
        },
        {
          label: t.reservedShort,
          now: <Money value={current.reservedInterest} asset={asset} />,
          after: <Money value={current.reservedInterest} asset={asset} />,
        },
      ]}
    />
  );
}

/**
 * A product's yield reserve: per book what is free for new investments beside the interest set
 * aside for current investors, and (finance and admin) a form that funds it by an audited ledger
 * transfer, showing the reserve after the amount typed before it is sent.
 */
export function ReserveFunding({ item }: { item: EarnProductAdmin }) {
  const { language, staff } = useBackOffice();
  const t = useEarnText();
  const client = useQueryClient();
  const { product } = item;
  const asset = product.asset;
  const [book, setBook] = useState<Book>('live');
  const current = item.books.find((b) => b.book === book);
  return (
    <AccountFunding
      texts={fundingTexts(t, { heading: t.reserveHeading, intro: t.reserveIntro, empty: '—' })}
      table={{
        columns: bookColumns(t, asset),
        rows: item.books,
        rowKey: (b) => b.book,
        testId: 'earn-reserve',
      }}
      mayFund={allowed(staff, adminCalls.fundEarnReserve)}
      choice={{
        label: t.book,
        name: 'book',
        value: book,
        options: BOOKS.map((b) => ({ value: b, label: t.books[b] })),
        onChange: (value) => setBook(value as Book),
      }}
      asset={asset}
      base={current?.reserveFree}
      preview={(after) =>
        current ? <Coverage t={t} asset={asset} book={book} current={current} after={after} /> : null
      }
      body={({ amount, reason }) => ({ productId: product.id, book, amount, reason })}
      schema={earnFundBody}
      send={(body) => callAdmin('fundEarnReserve', { body })}
      funded={async (saved, body) => {
        // The answer is the product as it is now: shown at once, the rest of earn reloaded.
        client.setQueryData<EarnProductAdmin[]>(keys.earnProducts(language), (rows) =>
          rows?.map((r) => (r.product.id === saved.product.id ? saved : r)),
        );
        await client.invalidateQueries({ queryKey: keys.earn, refetchType: 'none' });
        const after = saved.books.find((b) => b.book === body.book);
        return fill(t.funded, {
          amount: shownAmount(language, body.amount, asset),
          asset,
          book: t.books[body.book],
          free: amountText(language, after?.reserveFree ?? '0', asset),
          reserved: amountText(language, after?.reservedInterest ?? '0', asset),
        });
      }}
    />
  );
}
