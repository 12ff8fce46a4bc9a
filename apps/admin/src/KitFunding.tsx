import { ASSET_SCALES, parseMinor } from '@swx/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { failureMessage, StaffApiError } from './api.ts';
import { useBackOffice } from './context.ts';
import { type Column, DataTable } from './DataTable.tsx';
import { Field, SelectField, SubmitRow } from './Field.tsx';
import type { Schema } from './KitFields.tsx';
import { addAmounts } from './rates.ts';
import { fill } from './text.ts';
import './kit.css';

type Asset = keyof typeof ASSET_SCALES;

/** A fresh id for one funding: a repeated click (or a retry of a lost answer) funds once. */
const newRequestId = () => crypto.randomUUID();

/** What the funding form types, for the product to put in its body. */
export type Funding = { amount: string; reason: string; requestId: string };

/** The words of a funding screen. */
export type FundingTexts = {
  heading: string;
  intro: string;
  empty: string;
  fundHeading: string;
  fundIntro?: string;
  /** Said instead of the form to whom may not fund (nothing when unset). */
  readOnly?: string;
  /** The amount's label, with `{{asset}}`. */
  amount: string;
  reason: string;
  reasonHint: string;
  fund: string;
  checkValue: string;
};

/** The words of the funding form every product's texts have, picked from them. */
export const fundingTexts = (
  t: Pick<FundingTexts, 'fundHeading' | 'amount' | 'reason' | 'reasonHint' | 'fund' | 'checkValue'>,
  screen: Pick<FundingTexts, 'heading' | 'intro' | 'empty' | 'readOnly' | 'fundIntro'>,
): FundingTexts => ({
  ...screen,
  fundHeading: t.fundHeading,
  amount: t.amount,
  reason: t.reason,
  reasonHint: t.reasonHint,
  fund: t.fund,
  checkValue: t.checkValue,
});

/** A figure now and after the funding, in a row of the preview table; `label` heads the row. */
export type PreviewRow = { label?: string; now: ReactNode; after: ReactNode; testId?: string };

/**
 * The preview of a funding: a table of each figure now and after the amount typed, read out as it
 * changes; `title` heads it (then its caption is for screen readers only).
 */
export function NowAfter({
  title,
  caption,
  rows,
  texts,
}: {
  title?: string;
  caption: string;
  rows: PreviewRow[];
  texts: { nowFigure: string; afterFunding: string };
}) {
  const labelled = rows.some((r) => r.label !== undefined);
  return (
    <div className="kit-preview" aria-live="polite">
      {title ? <h5>{title}</h5> : null}
      <table>
        <caption className={title ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {labelled ? <td /> : null}
            <th scope="col">{texts.nowFigure}</th>
            <th scope="col">{texts.afterFunding}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label ?? caption}>
              {labelled ? <th scope="row">{r.label}</th> : null}
              <td>{r.now}</td>
              <td data-testid={r.testId}>{r.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The funding's form state: what is typed, which fields to fix, the call and what it said. */
function useFunding<Body, Saved>(options: {
  asset: Asset;
  body: (typed: Funding) => Body;
  schema: Schema<Body>;
  send: (body: Body) => Promise<Saved>;
  funded: (saved: Saved, body: Body) => Promise<string>;
}) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [done, setDone] = useState('');
  const fund = useMutation({
    mutationFn: options.send,
    onSuccess: async (saved, body) => {
      setDone(await options.funded(saved, body));
      setAmount('');
      setReason('');
      setRequestId(newRequestId());
    },
    onError: (error) => {
      if (error instanceof StaffApiError && Array.isArray(error.data))
        setInvalid(new Set((error.data as { path: string }[]).map((i) => i.path.split('.')[0] ?? '')));
    },
  });
  const typed = amount.trim();
  const validAmount = (() => {
    try {
      return parseMinor(typed, ASSET_SCALES[options.asset]) > 0n;
    } catch {
      return false;
    }
  })();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    const body = options.body({ amount: typed, reason: reason.trim(), requestId });
    const checked = options.schema.safeParse(body);
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
  const renew = () => setRequestId(newRequestId());
  return { amount, setAmount, reason, setReason, typed, validAmount, invalid, done, fund, submit, renew };
}

/** The table of what a funding's accounts hold (the loaded rows, or the query's state). */
export type FundingTable<Row> = {
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string | number;
  testId: string;
  loading?: boolean;
  failure?: string;
  onRetry?: () => void;
};

/** The choice of the account funded (a book, an asset): its label, name and options. */
export type FundingChoice = {
  label: string;
  name: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
};

/** What an account-funding screen is given. */
export type FundingProps<Row, Body, Saved> = {
  page?: boolean;
  texts: FundingTexts;
  table: FundingTable<Row>;
  mayFund: boolean;
  /** The form waits for the accounts (a page's query). */
  ready?: boolean;
  choice: FundingChoice;
  asset: Asset;
  /** The chosen account's figure the amount adds to; the preview is shown once it is known. */
  base: string | undefined;
  preview: (after: string | null) => ReactNode;
  body: (typed: Funding) => Body;
  schema: Schema<Body>;
  send: (body: Body) => Promise<Saved>;
  /** Puts what the server answered in place; says what was done. */
  funded: (saved: Saved, body: Body) => Promise<string>;
};

/**
 * One account-funding screen: the accounts' table and, for whom may fund, a form that funds one by
 * an audited ledger transfer (the account chosen, the amount of `asset`, a reason), previewing the
 * figure after the amount typed (`preview`, given `base + amount` or null) before it is sent. On a
 * page of its own (`page`) it is a panel under an h2; else a section of a page under an h3.
 */
export function AccountFunding<Row, Body, Saved>(props: FundingProps<Row, Body, Saved>) {
  const { page = false, texts: t, table, mayFund, ready = true, asset, base } = props;
  const { text } = useBackOffice();
  const headingId = useId();
  const funding = useFunding(props);
  const after = base !== undefined && funding.validAmount ? addAmounts(asset, base, funding.typed) : null;
  const Heading = page ? 'h2' : 'h3';
  return (
    <section className={page ? 'panel' : 'kit-section'} aria-labelledby={headingId}>
      <Heading id={headingId} tabIndex={page ? -1 : undefined}>
        {t.heading}
      </Heading>
      <p className="muted">{t.intro}</p>
      <DataTable
        caption={t.heading}
        {...table}
        loading={table.loading ?? false}
        failure={table.failure ?? ''}
        empty={t.empty}
      />
      {funding.done ? (
        <p className="success" role="status">
          {funding.done}
        </p>
      ) : null}
      {!mayFund ? (
        t.readOnly ? (
          <p className="muted">{t.readOnly}</p>
        ) : null
      ) : ready ? (
        <FundingForm {...props} page={page} funding={funding} after={after} failure={text.error} />
      ) : null}
    </section>
  );
}

/** The funding form: the account, the amount and the reason, the preview, the button. */
function FundingForm<Row, Body, Saved>({
  page,
  texts: t,
  choice,
  asset,
  base,
  preview,
  funding,
  after,
  failure,
}: FundingProps<Row, Body, Saved> & {
  page: boolean;
  funding: ReturnType<typeof useFunding<Body, Saved>>;
  after: string | null;
  failure: { generic: string; reasonShort: string };
}) {
  const headingId = useId();
  const Heading = page ? 'h3' : 'h4';
  const { fund, invalid } = funding;
  return (
    <form className="kit-fund" aria-labelledby={headingId} onSubmit={funding.submit} noValidate>
      <Heading id={headingId}>{t.fundHeading}</Heading>
      {t.fundIntro ? <p className="muted">{t.fundIntro}</p> : null}
      <div className="kit-fields">
        <SelectField
          label={choice.label}
          name={choice.name}
          value={choice.value}
          onChange={(e) => {
            choice.onChange(e.target.value);
            funding.renew();
          }}
          options={choice.options}
        />
        <Field
          label={fill(t.amount, { asset })}
          name="amount"
          dir="ltr"
          inputMode="decimal"
          autoComplete="off"
          value={funding.amount}
          error={invalid.has('amount') ? t.checkValue : undefined}
          onChange={(e) => funding.setAmount(e.target.value)}
        />
        <Field
          label={t.reason}
          name="reason"
          hint={t.reasonHint}
          maxLength={200}
          value={funding.reason}
          error={invalid.has('reason') ? failure.reasonShort : undefined}
          onChange={(e) => funding.setReason(e.target.value)}
        />
      </div>
      {base !== undefined ? preview(after) : null}
      <SubmitRow
        failure={fund.isError ? failureMessage(fund.error, failure.generic) : ''}
        busy={fund.isPending}
        label={t.fund}
      />
    </form>
  );
}
