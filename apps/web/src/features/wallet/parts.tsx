import {
  ASSET_SCALES,
  type Deposit,
  NETWORK_ASSETS,
  type Network,
  parseMinor,
  type Withdrawal,
  type WithdrawalAddress,
} from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, use, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatNumber } from '../../app/i18n.ts';
import { formatAmount, formatMoney } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { CopyButton as SharedCopyButton } from '../../ui/CopyButton.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import type { Tone } from '../../ui/product/Facts.tsx';
import { walletQueries } from '../transfers/queries.ts';
import { walletTexts } from './texts.ts';
import '../../ui/wallet-page.css';
import '../../ui/product/product.css';
import './wallet.css';

/**
 * A wallet screen: an account page with the book badge; in the demo book (virtual money) it says
 * that deposits and withdrawals are in the live account and offers the switch instead of the
 * screen, which the server would refuse there (10043).
 */
export function WalletPage({ title, children }: { title: string; children: (userId: number) => ReactNode }) {
  // The wallet's texts load with its chunk; the page's Suspense shows loading until they are in.
  use(walletTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  const demo = useClientState((s) => s.virtual === 1);
  return (
    <AccountPage title={title} book>
      {demo ? (
        <section className="card wallet-demo" data-testid="wallet-demo" aria-labelledby="wallet-demo-title">
          <h2 id="wallet-demo-title">{t('wallet.demo.title')}</h2>
          <p>{t('wallet.demo.text')}</p>
          <BookSwitch />
        </section>
      ) : user ? (
        children(user.id)
      ) : null}
    </AccountPage>
  );
}

/** The links between the wallet screens (and to the balance). */
export function WalletLinks({ current }: { current: string }) {
  const { t } = useTranslation();
  const links = [
    ['/profile/deposit', 'deposit'],
    ['/profile/withdraw', 'withdraw'],
    ['/profile/addresses', 'addresses'],
    ['/profile/deposits', 'deposits'],
    ['/profile/withdrawals', 'withdrawals'],
    ['/profile/balance', 'balance'],
  ] as const;
  return (
    <nav className="wallet-links" aria-label={t('wallet.links')}>
      <ul>
        {links
          .filter(([to]) => to !== current)
          .map(([to, title]) => (
            <li key={to}>
              <Link to={to}>{t(`title.${title}`)}</Link>
            </li>
          ))}
      </ul>
    </nav>
  );
}

/** The enabled networks, with the page states of their loading. */
export function WithNetworks({
  userId,
  children,
}: {
  userId: number;
  children: (networks: Network[]) => ReactNode;
}) {
  const { t } = useTranslation();
  const query = useQuery(walletQueries.networks(userId));
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <Empty text={t('wallet.noNetworks')} />;
  // In the contract's order of assets (USDT, ETH, BTC), whatever order the server lists them in.
  const order = (n: Network) => (NETWORK_ASSETS as readonly string[]).indexOf(n.asset);
  return children([...query.data].sort((a, b) => order(a) - order(b)));
}

/** Picks one network: a labelled select naming the asset and the chain. */
export function NetworkPicker({
  networks,
  value,
  onChange,
  error,
}: {
  networks: readonly Network[];
  value: string;
  onChange: (id: string) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t('wallet.network')}</label>
      <select
        id={id}
        className="control"
        name="network"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {networks.map((n) => (
          <option key={n.id} value={n.id}>
            {networkWords(t, n.asset, n)}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A network in words: "USDT on Ethereum (ERC-20)" (a network no longer offered: its id). */
export function networkWords(
  t: (key: string, values: Record<string, string>) => string,
  asset: string,
  network: Pick<Network, 'name'> | string | undefined,
): string {
  const name = typeof network === 'object' ? network.name : (network ?? '');
  return t('wallet.networkOn', { asset, network: name });
}

/** The words of the networks the customer is offered, by id (for records, which carry only the id). */
export function useNetworkWords(userId: number): ((id: string, asset: string) => string) | null {
  const { t } = useTranslation();
  const networks = useQuery(walletQueries.networks(userId));
  // While the names load: nothing (a screen waits rather than show a network's code, then its name).
  if (networks.isPending) return null;
  return (id, asset) => networkWords(t, asset, networks.data?.find((n) => n.id === id) ?? id);
}

/** The reader's language and formatters of wallet figures. */
export function useWalletFormat() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return {
    language,
    /** An amount with its asset, at the asset's display scale. */
    money: (amount: string, asset: string) => `${formatMoney(language, amount, asset)} ${asset}`,
    /** A decimal exactly as the server gave it (a minimum, a limit), with its asset. */
    exact: (amount: string, asset: string) => `${formatAmount(language, amount, 8)} ${asset}`,
    /** "about 4 minutes", in the reader's words and numbers. */
    minutes: (minutes: number) =>
      t('wallet.about', {
        time: formatNumber(language, Math.max(1, minutes), {
          style: 'unit',
          unit: 'minute',
          unitDisplay: 'long',
        }),
      }),
    /**
     * A wait counted in blocks, said as it counts down: "about 7 seconds" under a minute, else the
     * nearest minute ("about 2 minutes").
     */
    wait: (seconds: number) =>
      t('wallet.about', {
        time:
          seconds < 60
            ? formatNumber(language, Math.max(1, seconds), {
                style: 'unit',
                unit: 'second',
                unitDisplay: 'long',
              })
            : formatNumber(language, Math.round(seconds / 60), {
                style: 'unit',
                unit: 'minute',
                unitDisplay: 'long',
              }),
      }),
    /** A waiting time: "23 h 10 min" (hours and minutes, short units). */
    duration: (ms: number) => {
      const total = Math.max(1, Math.ceil(ms / 60_000));
      const hours = Math.floor(total / 60);
      const minutes = total % 60;
      const unit = (value: number, name: 'hour' | 'minute') =>
        formatNumber(language, value, { style: 'unit', unit: name, unitDisplay: 'short' });
      if (hours === 0) return unit(minutes, 'minute');
      return minutes === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
    },
    date: (value: string) => formatDate(language, value, { dateStyle: 'medium', timeStyle: 'short' }),
    count: (value: number) => formatNumber(language, value),
  };
}

/** The current time, renewed every `everyMs` (lock timers count down by the minute). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** When an address of the book can be used: "usable now" or "usable in 23 h 10 min". */
export function LockState({ address, now }: { address: WithdrawalAddress; now: number }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const left = Date.parse(address.usableFrom) - now;
  return left > 0 ? (
    <span className="lock-state locked" data-testid="lock-state" data-locked="true">
      {t('wallet.lock.in', { time: f.duration(left) })}
    </span>
  ) : (
    <span className="lock-state" data-testid="lock-state" data-locked="false">
      {t('wallet.lock.now')}
    </span>
  );
}

/** Is the amount typed below a minimum? Undefined when either cannot be read at the asset's scale. */
export function isBelow(
  amount: string,
  minimum: string,
  asset: keyof typeof ASSET_SCALES,
): boolean | undefined {
  try {
    const scale = ASSET_SCALES[asset];
    return parseMinor(amount.trim(), scale) < parseMinor(minimum, scale);
  } catch {
    return undefined;
  }
}

/** The shared copy button, saying the outcome in this feature's words. */
export function CopyButton(props: { text: string; label: string; name?: string }) {
  const { t } = useTranslation();
  return (
    <SharedCopyButton {...props} said={{ copied: t('wallet.copied'), failed: t('wallet.copyFailed') }} />
  );
}

/** A transaction hash, shortened (the full one in its title and copied by its button). */
export function TxHash({ hash }: { hash: string | null }) {
  const { t } = useTranslation();
  if (!hash) return <span className="muted">—</span>;
  const short = hash.length > 16 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash;
  return (
    <span className="tx-hash">
      <code dir="ltr" title={hash} data-hash={hash}>
        {short}
      </code>{' '}
      <CopyButton text={hash} label={t('wallet.copy')} name={t('wallet.copyHash')} />
    </span>
  );
}

/** A deposit's progress in words: "Confirming: 3 of 12, about 2 minutes", or its state. */
export function DepositProgress({ deposit }: { deposit: Deposit }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const eta = deposit.etaSeconds === null ? '' : f.wait(deposit.etaSeconds);
  if (deposit.state === 'confirming')
    return (
      <span data-testid="deposit-progress">
        {t('wallet.deposit.confirming', {
          done: f.count(deposit.confirmations),
          total: f.count(deposit.creditConfirmations),
          eta,
        })}
        <progress
          className="wallet-progress"
          max={deposit.creditConfirmations}
          value={Math.min(deposit.confirmations, deposit.creditConfirmations)}
          aria-hidden="true"
        />
      </span>
    );
  if (deposit.state === 'credited')
    return (
      <span data-testid="deposit-progress">
        {t('wallet.deposit.unlocking', {
          done: f.count(deposit.confirmations),
          total: f.count(deposit.unlockConfirmations),
          eta,
        })}
      </span>
    );
  if (deposit.state === 'available')
    return <span data-testid="deposit-progress">{t('wallet.deposit.withdrawableNow')}</span>;
  if (deposit.state === 'below_minimum')
    return (
      <span data-testid="deposit-progress">
        {t('wallet.deposit.belowMinimumSeen', { minimum: f.exact(deposit.minimum, deposit.asset) })}
      </span>
    );
  return null;
}

/** The tone of a deposit's or withdrawal's state (its words say it). */
const STATE_TONES: Partial<Record<string, Tone>> = {
  rejected: 'danger',
  failed: 'danger',
  reversed: 'danger',
  below_minimum: 'danger',
  available: 'success',
  completed: 'success',
};

/** A deposit's or withdrawal's state in words, with its own mark. */
export function StateWord({ kind, state }: { kind: 'deposit' | 'withdrawal'; state: string }) {
  const { t } = useTranslation();
  return (
    <span className="wallet-state product-chip" data-state={state} data-tone={STATE_TONES[state]}>
      {t(`wallet.${kind}State.${state}`)}
    </span>
  );
}

/** Networks the platform cannot send on, each with why: said before an address is added to the book. */
export function ClosedNetworks({ networks }: { networks: Network[] }) {
  const { t } = useTranslation();
  if (networks.length === 0) return null;
  return (
    <section className="card" aria-labelledby="withdraw-closed-title" data-testid="withdraw-closed">
      <h2 id="withdraw-closed-title">{t('wallet.withdraw.closedTitle')}</h2>
      <ul className="wallet-list">
        {networks.map((n) => (
          <li key={n.id} data-network={n.id}>
            <strong>{networkWords(t, n.asset, n)}</strong>
            {': '}
            {n.watched ? t('wallet.withdraw.closedPaused') : t('wallet.withdraw.closedNoNode')}
          </li>
        ))}
      </ul>
    </section>
  );
}

export type { Deposit, Network, Withdrawal };
