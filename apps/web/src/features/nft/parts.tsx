import type { NftView } from '@swx/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { useFigureFormat } from '../../app/figures.ts';
import { BookBadge } from '../../shell/BookBadge.tsx';
import { announceStep, clockText, countdownParts, deadlineOf, percentOfBps } from './auction.ts';

/** The reader's formatters of NFT figures: the product's own, a share, and a short chain address. */
export function useNftFormat() {
  const f = useFigureFormat();
  return {
    ...f,
    percent: (bps: number) => `\u2066${percentOfBps(bps)} %\u2069`,
  };
}

/** An address or hash kept whole, left to right, breakable anywhere (it is long). */
export function Hex({ value, testId }: { value: string; testId?: string }) {
  return (
    <code className="nft-hex" dir="ltr" data-testid={testId}>
      {value}
    </code>
  );
}

/** The clock of this device, ticking each second while shown. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

/** Days and the clock, worded: "2 d 03:04:05", or the clock alone under a day. */
function useCountdownText() {
  const { t } = useTranslation();
  return (leftMs: number) => {
    const parts = countdownParts(leftMs);
    const clock = clockText(parts);
    return parts.days > 0 ? t('nft.countdown.days', { days: parts.days, clock }) : clock;
  };
}

/**
 * The time left of an auction, counted down here each second from what the server said was left
 * when it answered (`receivedAt`). Shown as a clock; read to a screen reader as a sentence, each
 * minute, then each ten seconds in the last ten minutes (a polite live region, not every tick).
 */
export function Countdown({
  remainingSeconds,
  receivedAt,
  compact = false,
}: {
  remainingSeconds: number;
  receivedAt: number;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const deadline = deadlineOf(remainingSeconds, receivedAt);
  const now = useNow(deadline > Date.now());
  const left = Math.max(0, deadline - now);
  const text = useCountdownText();
  const spoken = text(announceStep(left) * 1000);
  if (left === 0)
    return (
      <span className="nft-countdown ended" data-testid="nft-countdown" data-left="0">
        {t('nft.countdown.ended')}
      </span>
    );
  return (
    <span className="nft-countdown" data-testid="nft-countdown" data-left={Math.ceil(left / 1000)}>
      <span aria-hidden="true" dir="ltr">
        {text(left)}
      </span>
      <span className="visually-hidden" aria-live={compact ? 'off' : 'polite'}>
        {t('nft.countdown.left', { time: spoken })}
      </span>
    </span>
  );
}

/** A drop's state in words with a mark of its own shape (never colour alone). */
export function StateChip({ nft }: { nft: Pick<NftView, 'state' | 'leadingMine'> }) {
  const { t } = useTranslation();
  const marks: Record<NftView['state'], string> = {
    draft: '○',
    scheduled: '◷',
    live: '●',
    ended: '◼',
    sold: '✓',
    unsold: '✕',
  };
  return (
    <span className="nft-chip" data-state={nft.state} data-testid="nft-state">
      <span aria-hidden="true">{marks[nft.state]}</span> {t(`nft.state.${nft.state}`)}
      {nft.leadingMine ? <span className="nft-mine">{t('nft.leadingMine')}</span> : null}
    </span>
  );
}

/** The reserve, said as met or not in words and a mark (its amount is on the rules). */
export function ReserveMark({ nft }: { nft: NftView }) {
  const { t } = useTranslation();
  if (nft.rules.saleType !== 'auction' || nft.rules.reserve === null) return null;
  return (
    <span className="nft-reserve" data-met={nft.reserveMet} data-testid="nft-reserve">
      <span aria-hidden="true">{nft.reserveMet ? '✓ ' : '✕ '}</span>
      {nft.reserveMet ? t('nft.reserve.met') : t('nft.reserve.notMet')}
    </span>
  );
}

/** The current bid (or price, for a fixed sale) as a card or the detail shows it. */
export function PriceLine({ nft }: { nft: NftView }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  if (nft.rules.saleType === 'fixed')
    return (
      <span>
        {t('nft.price')}: <strong>{f.money(nft.currentBid ?? nft.rules.startPrice, nft.asset)}</strong>
      </span>
    );
  return nft.currentBid === null ? (
    <span>
      {t('nft.startPrice')}: <strong>{f.money(nft.rules.startPrice, nft.asset)}</strong>
    </span>
  ) : (
    <span>
      {t('nft.currentBid')}: <strong>{f.money(nft.currentBid, nft.asset)}</strong>
    </span>
  );
}

/** One NFT of the market: its artwork, name, creator, price, time left and donation, linked to its page. */
export function NftCard({ nft, receivedAt }: { nft: NftView; receivedAt: number }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  return (
    <li className="card nft-card" data-nft={nft.id}>
      <img
        className="nft-art"
        src={nft.imageUrl}
        alt={t('nft.artworkOf', { name: nft.name })}
        loading="lazy"
      />
      <div className="nft-card-body">
        <h2 className="nft-card-title">
          <Link to={`/nfts/${nft.id}`}>{nft.name}</Link>
        </h2>
        <p className="muted small">{t('nft.by', { creator: nft.creator })}</p>
        <StateChip nft={nft} />
        <p>
          <PriceLine nft={nft} />
        </p>
        {nft.remainingSeconds !== null && nft.state === 'live' ? (
          <p>
            {t('nft.timeLeft')}:{' '}
            <Countdown remainingSeconds={nft.remainingSeconds} receivedAt={receivedAt} compact />
          </p>
        ) : null}
        <p className="small">
          {t('nft.donated', { charity: nft.charity.name })}:{' '}
          <strong>{f.money(nft.cumulativeDonation, nft.asset)}</strong>
        </p>
      </div>
    </li>
  );
}

/** A refusal worded for the customer: the server's words (the code catalogue), or ours for the network. */
export function refusalText(error: unknown, fallback: string): string {
  return error instanceof ApiFailure && error.code > 0 && error.message ? error.message : fallback;
}

/** The market's and the customer's own pages linked from one another. */
export function NftNav({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <nav className="nft-nav" aria-label={t('nft.nav')}>
      <Link to="/nfts">{t('nft.market')}</Link>
      <Link to="/nfts/mine">{t('nft.mine')}</Link>
      <Link to="/nfts/log">{t('nft.log')}</Link>
      <BookBadge />
      {children}
    </nav>
  );
}
