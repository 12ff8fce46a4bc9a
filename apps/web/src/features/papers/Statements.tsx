import { STATEMENT_PATH, type StatementFormat, TAX_EXPORT_PATH } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { use, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, downloadFile } from '../../app/api.ts';
import { formatMoney } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { papersQueries } from './queries.ts';
import { papersTexts } from './texts.ts';
import './papers.css';

const ASSETS = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
const TYPES: Record<StatementFormat, string> = { pdf: 'application/pdf', csv: 'text/csv' };

/** The month before today's, as YYYY-MM (UTC). */
function lastMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}
/** A month's first and last days. */
function monthDays(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { from: `${month}-01`, to: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) };
}

/** Downloads a paper; answers the failure's words, or '' when it came. */
function useDownload() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const run = async (path: string, query: Record<string, string>, name: string, type: string) => {
    setBusy(true);
    setFailure('');
    try {
      await downloadFile(path, query, name, type);
      await client.invalidateQueries({ queryKey: papersQueries.all });
    } catch (error) {
      setFailure(error instanceof ApiFailure ? error.message : t('papers.failed'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, run };
}

/** The period: a month, or any two dates; tells the form each change. */
function PeriodPicker({ onChange }: { onChange: (period: { from: string; to: string }) => void }) {
  const { t } = useTranslation();
  const [mode, setModeState] = useState<'month' | 'custom'>('month');
  const [month, setMonthState] = useState(lastMonth);
  const [range, setRangeState] = useState(() => monthDays(lastMonth()));
  const setMode = (next: 'month' | 'custom') => {
    setModeState(next);
    onChange(next === 'month' ? monthDays(month) : range);
  };
  const setMonth = (next: string) => {
    setMonthState(next);
    if (next) onChange(monthDays(next));
  };
  const setRange = (change: (r: { from: string; to: string }) => { from: string; to: string }) => {
    const next = change(range);
    setRangeState(next);
    onChange(next);
  };
  return (
    <fieldset className="papers-period">
      <legend>{t('papers.period')}</legend>
      <label className="inline">
        <input type="radio" name="mode" checked={mode === 'month'} onChange={() => setMode('month')} />
        {t('papers.month')}
      </label>
      <label className="inline">
        <input type="radio" name="mode" checked={mode === 'custom'} onChange={() => setMode('custom')} />
        {t('papers.custom')}
      </label>
      {mode === 'month' ? (
        <label>
          {t('papers.month')}
          <input
            className="control"
            type="month"
            name="month"
            value={month}
            onChange={(e) => setMonth(e.target.value)}
            required
          />
        </label>
      ) : (
        <div className="papers-range">
          <label>
            {t('papers.from')}
            <input
              className="control"
              type="date"
              name="from"
              value={range.from}
              onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
              required
            />
          </label>
          <label>
            {t('papers.to')}
            <input
              className="control"
              type="date"
              name="to"
              value={range.to}
              onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
              required
            />
          </label>
        </div>
      )}
    </fieldset>
  );
}

/** The statement form: period, asset and format; downloads the file in this book. */
function StatementForm() {
  const { t } = useTranslation();
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const [period, setPeriod] = useState(() => monthDays(lastMonth()));
  const [asset, setAsset] = useState<(typeof ASSETS)[number]>('USDT');
  const [format, setFormat] = useState<StatementFormat>('pdf');
  const download = useDownload();
  const valid = Boolean(period.from && period.to && period.from <= period.to);
  return (
    <>
      <form
        className="papers-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          const name = `statement-${book}-${asset}-${period.from}-${period.to}.${format}`;
          void download.run(STATEMENT_PATH, { asset, ...period, format }, name, TYPES[format]);
        }}
      >
        <PeriodPicker onChange={setPeriod} />
        <label>
          {t('papers.asset')}
          <select
            className="control"
            name="asset"
            value={asset}
            onChange={(e) => setAsset(e.target.value as typeof asset)}
          >
            {ASSETS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('papers.format')}
          <select
            className="control"
            name="format"
            value={format}
            onChange={(e) => setFormat(e.target.value as StatementFormat)}
          >
            <option value="pdf">{t('papers.pdf')}</option>
            <option value="csv">{t('papers.csv')}</option>
          </select>
        </label>
        <button type="submit" className="button primary" disabled={download.busy || !valid}>
          {download.busy ? t('papers.downloading') : t('papers.download')}
        </button>
      </form>
      {download.failure ? <p role="alert">{download.failure}</p> : null}
    </>
  );
}

/**
 * A statement of this book for a month or any dates, as PDF or CSV, in the reader's language: on
 * the papers page, and folded on the transaction record (`more`: with a link to the papers page).
 */
export function StatementDownload({ more = false }: { more?: boolean }) {
  use(papersTexts);
  const { t } = useTranslation();
  const id = useId();
  const body = (
    <>
      <p className="muted small">{t('papers.statementIntro')}</p>
      <StatementForm />
    </>
  );
  if (!more)
    return (
      <section className="card papers-statement" aria-labelledby={`${id}-h`} data-testid="statement-download">
        <h2 id={`${id}-h`}>{t('papers.statement')}</h2>
        {body}
      </section>
    );
  return (
    <details className="card papers-statement" data-testid="statement-download">
      <summary>
        <h2>{t('papers.statement')}</h2>
      </summary>
      {body}
      <p className="small">
        <Link to="/profile/papers">{t('papers.more')}</Link>
      </p>
    </details>
  );
}

/** The statements made in this book (by the monthly run or a download), with their figures. */
export function StatementList({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const query = useQuery(papersQueries.statements(userId, book));
  const money = (value: string, asset: string) =>
    `\u2066${formatMoney(language, value, asset)} ${asset}\u2069`;
  return (
    <section className="card" aria-labelledby="papers-recorded">
      <h2 id="papers-recorded">{t('papers.recorded')}</h2>
      {query.isPending ? <Loading /> : null}
      {query.isError ? <Failed message={query.error.message} onRetry={() => void query.refetch()} /> : null}
      {query.isSuccess && query.data.statements.length === 0 ? (
        <Empty text={t('papers.recordedEmpty')} />
      ) : null}
      {query.isSuccess && query.data.statements.length > 0 ? (
        <ul className="papers-recorded">
          {query.data.statements.map((s) => (
            <li key={`${s.asset}-${s.from}-${s.to}`}>
              <strong>
                <bdi>{`${s.asset} · ${s.from} – ${s.to}`}</bdi>
              </strong>
              <span className="muted small">
                {t('papers.recordedLine', {
                  opening: money(s.opening, s.asset),
                  closing: money(s.closing, s.asset),
                  fees: money(s.fees, s.asset),
                  events: s.events,
                })}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** A year's realised results and fees per asset (CSV, the method in its first line). */
export function TaxExport() {
  const { t } = useTranslation();
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const thisYear = new Date().getUTCFullYear();
  const [year, setYear] = useState(thisYear - 1);
  const download = useDownload();
  return (
    <section className="card" aria-labelledby="papers-tax">
      <h2 id="papers-tax">{t('papers.tax')}</h2>
      <p className="muted small">{t('papers.taxIntro')}</p>
      <form
        className="papers-form"
        onSubmit={(event) => {
          event.preventDefault();
          void download.run(TAX_EXPORT_PATH, { year: String(year) }, `tax-${book}-${year}.csv`, 'text/csv');
        }}
      >
        <label>
          {t('papers.year')}
          <select
            className="control"
            name="year"
            value={year}
            onChange={(e) => setYear(Number(e.target.value))}
          >
            {[0, 1, 2, 3, 4].map((back) => (
              <option key={back} value={thisYear - back}>
                {thisYear - back}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button ghost" disabled={download.busy}>
          {download.busy ? t('papers.downloading') : t('papers.taxDownload')}
        </button>
      </form>
      {download.failure ? <p role="alert">{download.failure}</p> : null}
    </section>
  );
}
