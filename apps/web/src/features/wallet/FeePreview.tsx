import { ASSET_SCALES, formatMinor, type Network, parseMinor, withdrawalFee } from '@swx/contract';
import { useTranslation } from 'react-i18next';
import { formatPercent } from '../../app/money.ts';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { useWalletFormat } from './parts.tsx';

/**
 * The fee rule of the network and, once an amount is typed, the fee and what would be received:
 * the contract's rule (amount × rate, rounded up to the asset's unit), before any address is
 * chosen or usable. The quote then signs these figures.
 */
export function FeePreview({ network, amount }: { network: Network; amount: string }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const scale = ASSET_SCALES[network.asset];
  let figures: { fee: string; receive: string } | null = null;
  try {
    const minor = parseMinor(amount.trim(), scale);
    const fee = withdrawalFee(minor, network.withdrawalFeeRate);
    if (minor > 0n && fee < minor)
      figures = { fee: formatMinor(fee, scale), receive: formatMinor(minor - fee, scale) };
  } catch {
    figures = null;
  }
  const money = (name: 'fee' | 'receive', label: string): Fact =>
    figures
      ? { name, label, value: figures[name], shown: f.money(figures[name], network.asset) }
      : { name, label, shown: t('wallet.withdraw.enterAmount') };
  return (
    <Facts
      mark="fact"
      testId="withdraw-preview"
      facts={[
        {
          name: 'feeRule',
          label: t('wallet.withdraw.feeLabel'),
          value: network.withdrawalFeeRate,
          shown: t('wallet.withdraw.feeRule', { rate: formatPercent(f.language, network.withdrawalFeeRate) }),
        },
        money('fee', t('wallet.withdraw.feeAmount')),
        money('receive', t('wallet.withdraw.wouldReceive')),
      ]}
    />
  );
}
