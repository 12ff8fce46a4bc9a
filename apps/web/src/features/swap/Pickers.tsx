import type { SwapAsset, SwapPair } from '@swx/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

const unique = <T,>(values: T[]): T[] => [...new Set(values)];

/** A select of assets, labelled. */
function AssetPicker({
  label,
  name,
  value,
  assets,
  onChange,
}: {
  label: string;
  name: string;
  value: SwapAsset;
  assets: SwapAsset[];
  onChange: (asset: SwapAsset) => void;
}) {
  const id = useId();
  return (
    <div className="field swap-picker">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="control"
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value as SwapAsset)}
      >
        {assets.map((asset) => (
          <option key={asset} value={asset}>
            {asset}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The pair chosen: from and to (the first pair that can be swapped to start with), the pair and
 * its reverse, and what each side offers. A new `from` keeps `to` when that pair exists.
 */
export function usePairChoice(pairs: SwapPair[]) {
  const first = pairs.find((p) => p.available) ?? pairs[0];
  const [from, setFrom] = useState<SwapAsset>(first?.from ?? 'USDT');
  const [to, setTo] = useState<SwapAsset>(first?.to ?? 'BTC');
  const pick = (nextFrom: SwapAsset, nextTo: SwapAsset) => {
    setFrom(nextFrom);
    const fits = pairs.some((p) => p.from === nextFrom && p.to === nextTo);
    setTo(fits ? nextTo : (pairs.find((p) => p.from === nextFrom)?.to ?? nextTo));
  };
  return {
    from,
    to,
    pick,
    pair: pairs.find((p) => p.from === from && p.to === to),
    reverse: pairs.find((p) => p.from === to && p.to === from),
    fromAssets: unique(pairs.map((p) => p.from)),
    toAssets: pairs.filter((p) => p.from === from).map((p) => p.to),
  };
}

export type PairChoice = ReturnType<typeof usePairChoice>;

/** From, the flip (when the reverse pair exists), to. */
export function PairPickers({ choice }: { choice: PairChoice }) {
  const { t } = useTranslation();
  const { from, to, pick } = choice;
  return (
    <div className="swap-pickers">
      <AssetPicker
        label={t('swap.form.from')}
        name="from"
        value={from}
        assets={choice.fromAssets}
        onChange={(a) => pick(a, to)}
      />
      <button
        type="button"
        className="icon-button swap-flip"
        data-testid="swap-flip"
        disabled={!choice.reverse}
        aria-label={t('swap.form.flip', { from: to, to: from })}
        onClick={() => pick(to, from)}
      >
        <span aria-hidden="true">⇄</span>
      </button>
      <AssetPicker
        label={t('swap.form.to')}
        name="to"
        value={to}
        assets={choice.toAssets}
        onChange={(a) => pick(from, a)}
      />
    </div>
  );
}
