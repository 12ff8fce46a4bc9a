import type { Direction, TradingTerms } from '@swx/contract';
import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../app/money.ts';
import { Field } from '../../ui/Field.tsx';
import { StopField, useTradeFormat } from './parts.tsx';
import { autoCloseKey, stepLots } from './ticket.ts';

/** Long or short: two buttons, the one chosen pressed, each with its arrow and what it means. */
export function DirectionChoice({
  value,
  onChange,
}: {
  value: Direction;
  onChange: (direction: Direction) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="direction-choice product-choice">
      <legend>{t('trade.direction')}</legend>
      {(['long', 'short'] as const).map((direction) => (
        <button
          key={direction}
          type="button"
          className={`direction-button ${direction}`}
          aria-pressed={value === direction}
          data-direction={direction}
          onClick={() => onChange(direction)}
        >
          <span className="direction-name">
            <span aria-hidden="true">{direction === 'long' ? '▲ ' : '▼ '}</span>
            {direction === 'long' ? t('trade.long') : t('trade.short')}
          </span>
          <span className="direction-hint">
            {direction === 'long' ? t('trade.longHint') : t('trade.shortHint')}
          </span>
        </button>
      ))}
    </fieldset>
  );
}

/** The lots, with their range and step, and a step down and up. */
export function LotsField({
  terms,
  value,
  error,
  onChange,
  onBlur,
}: {
  terms: TradingTerms;
  value: string;
  error: string | undefined;
  onChange: Dispatch<SetStateAction<string>>;
  onBlur: () => void;
}) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <Field
      label={t('trade.lots')}
      name="lots"
      inputMode="decimal"
      autoComplete="off"
      value={value}
      hint={t('trade.lotsHint', {
        min: f.decimal(terms.minLots),
        max: f.decimal(terms.maxLots),
        step: f.decimal(terms.lotStep),
      })}
      error={error}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    >
      <button
        type="button"
        className="button ghost stepper"
        aria-label={t('trade.fewerLots')}
        onClick={() => onChange((v) => stepLots(v, -1, terms))}
      >
        −
      </button>
      <button
        type="button"
        className="button ghost stepper"
        aria-label={t('trade.moreLots')}
        onClick={() => onChange((v) => stepLots(v, 1, terms))}
      >
        +
      </button>
    </Field>
  );
}

/** The leverage, among those the instrument allows. */
export function LeverageField({
  id,
  leverages,
  value,
  onChange,
}: {
  id: string;
  leverages: number[];
  value: number;
  onChange: (leverage: number) => void;
}) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <div className="field">
      <label htmlFor={id}>{t('trade.leverage')}</label>
      <select
        className="control"
        id={id}
        name="leverage"
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {leverages.map((leverage) => (
          <option key={leverage} value={leverage}>
            {f.leverage(leverage)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Stop loss and take profit; refused together, both marked and the refusal said under them (`bothId`). */
export function StopFields({
  direction,
  placeholder,
  stops,
  errors,
  both,
  bothId,
  onChange,
  onBlur,
}: {
  direction: Direction;
  placeholder: string;
  stops: { stopLoss: string; takeProfit: string };
  errors: { stopLoss: string | undefined; takeProfit: string | undefined };
  both: boolean;
  bothId: string;
  onChange: (name: 'stopLoss' | 'takeProfit', value: string) => void;
  onBlur: (name: 'stopLoss' | 'takeProfit') => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="stops">
        {(['stopLoss', 'takeProfit'] as const).map((name) => (
          <StopField
            key={name}
            name={name}
            direction={direction}
            placeholder={placeholder}
            value={stops[name]}
            error={errors[name]}
            joint={both}
            onValue={(value) => onChange(name, value)}
            onBlur={() => onBlur(name)}
          />
        ))}
      </div>
      {both ? (
        <p id={bothId} className="form-error" role="alert">
          {t('trade.error.both')}
        </p>
      ) : null}
    </>
  );
}

/**
 * A trailing stop's distance (optional): the stop follows a favourable move at this distance and
 * never moves back. Empty: none.
 */
export function TrailingField({
  direction,
  placeholder,
  value,
  error,
  onChange,
  onBlur,
}: {
  direction: Direction;
  placeholder: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('trade.trailingDistanceField')}
      name="trailingDistance"
      inputMode="decimal"
      autoComplete="off"
      placeholder={placeholder}
      hint={direction === 'long' ? t('trade.trailingHintLong') : t('trade.trailingHintShort')}
      error={error}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      {...(onBlur ? { onBlur } : {})}
    />
  );
}

/** Close by itself after a while, or not: the instrument's choices. */
export function AutoCloseField({
  id,
  choices,
  value,
  onChange,
}: {
  id: string;
  choices: number[];
  value: number | null;
  onChange: (seconds: number | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={id}>{t('trade.autoClose')}</label>
      <select
        className="control"
        id={id}
        name="autoClose"
        aria-describedby={`${id}-hint`}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      >
        <option value="">{t('trade.autoCloseNone')}</option>
        {choices.map((seconds) => {
          const key = autoCloseKey(seconds);
          return (
            <option key={seconds} value={seconds}>
              {key ? t(`trade.period.${key}`) : t('trade.period.hours', { count: seconds / 3600 })}
            </option>
          );
        })}
      </select>
      <p id={`${id}-hint`} className="field-hint">
        {t('trade.autoCloseHint')}
      </p>
    </div>
  );
}

/**
 * What one lot is: "1 BTC" or "100,000 EUR" when the code names its base asset before the quote
 * currency, else "50 × ESF" (the lot is that many times the price).
 */
function lotUnits(terms: TradingTerms, size: string): string {
  const quote = terms.quoteCurrency;
  const base =
    terms.code.endsWith(quote) && terms.code.length > quote.length
      ? terms.code.slice(0, -quote.length)
      : null;
  return base ? `${size} ${base}` : `${size} × ${terms.code}`;
}

/** The instrument's trading terms: lot size, fee and spread rates, the most leverage, the stop-out. */
export function Terms({ terms }: { terms: TradingTerms }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <section className="trade-terms" aria-labelledby="trade-terms-title">
      <h3 id="trade-terms-title">{t('trade.terms', { code: terms.code })}</h3>
      <dl className="figures compact">
        <div data-term="lotSize">
          <dt>{t('trade.lotSize')}</dt>
          <dd>
            {t('trade.lotSizeValue', { size: lotUnits(terms, formatAmount(f.language, terms.lotSize, 0)) })}
          </dd>
        </div>
        <div data-term="feeRate">
          <dt>{t('trade.feeRate')}</dt>
          <dd>{t('trade.feeRateValue', { rate: f.ratio(terms.feeRate) })}</dd>
        </div>
        <div data-term="spreadRate">
          <dt>{t('trade.spreadRate')}</dt>
          <dd>{t('trade.spreadRateValue', { rate: f.ratio(terms.spreadRate) })}</dd>
        </div>
        <div data-term="maxLeverage">
          <dt>{t('trade.maxLeverage')}</dt>
          <dd>{f.leverage(terms.maxLeverage)}</dd>
        </div>
        <div data-term="stopOut">
          <dt>{t('trade.stopOut')}</dt>
          <dd>{t('trade.stopOutValue', { percent: f.ratio(`${terms.stopOutPercent}e-2`) })}</dd>
        </div>
      </dl>
    </section>
  );
}
