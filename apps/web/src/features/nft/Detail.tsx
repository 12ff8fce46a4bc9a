import type { NftBid, NftQuote, NftView } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type FormEvent, use, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { LoginLinks } from '../../shell/LoginLinks.tsx';
import { Field, FormError } from '../../ui/Field.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { bidReaches } from './auction.ts';
import { ConfirmNft } from './Confirm.tsx';
import {
  Countdown,
  Hex,
  NftNav,
  PriceLine,
  ReserveMark,
  refusalText,
  StateChip,
  useNftFormat,
} from './parts.tsx';
import { nftQueries } from './queries.ts';
import { nftTexts } from './texts.ts';
import './nft.css';

/** The spec's fields of an NFT (creator, chain, contract and token, current bid, time left, donation). */
function nftFacts(
  nft: NftView,
  receivedAt: number,
  t: TFunction,
  f: ReturnType<typeof useNftFormat>,
): Fact[] {
  return [
    { name: 'creator', label: t('nft.creator'), shown: nft.creator },
    { name: 'chain', label: t('nft.chain'), shown: <span dir="ltr">{nft.chain}</span>, value: nft.chain },
    {
      name: 'contract',
      label: t('nft.contract'),
      shown: nft.contractAddress ? <Hex value={nft.contractAddress} /> : t('nft.notMinted'),
      value: nft.contractAddress ?? '',
    },
    {
      name: 'token',
      label: t('nft.tokenId'),
      shown: nft.tokenId ? <Hex value={nft.tokenId} /> : t('nft.notMinted'),
      value: nft.tokenId ?? '',
    },
    { name: 'current', label: t('nft.price'), shown: <PriceLine nft={nft} /> },
    {
      name: 'left',
      label: t('nft.timeLeft'),
      shown:
        nft.remainingSeconds === null ? (
          t('nft.noEnd')
        ) : (
          <Countdown remainingSeconds={nft.remainingSeconds} receivedAt={receivedAt} />
        ),
    },
    {
      name: 'donation',
      label: t('nft.cumulative', { charity: nft.charity.name }),
      shown: f.money(nft.cumulativeDonation, nft.asset),
      value: nft.cumulativeDonation,
    },
    {
      name: 'charity',
      label: t('nft.charity'),
      shown: t('nft.share', { charity: nft.charity.name, share: f.percent(nft.charity.shareBps) }),
      long: true,
    },
  ];
}

/** The rules, stated before the first bid: start, increment, extension, reserve (met or not), buy-now, fee. */
function Rules({ nft }: { nft: NftView }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  const r = nft.rules;
  const heading = useId();
  const items =
    r.saleType === 'fixed'
      ? [t('nft.rules.fixed', { price: f.money(r.startPrice, nft.asset) })]
      : [
          t('nft.rules.start', { price: f.money(r.startPrice, nft.asset) }),
          t('nft.rules.increment', { share: f.percent(r.minIncrementBps) }),
          t('nft.rules.extension', { minutes: Math.round(r.extensionSeconds / 60) }),
          r.reserve === null
            ? t('nft.rules.noReserve')
            : t('nft.rules.reserve', { amount: f.money(r.reserve, nft.asset) }),
          r.buyNow === null
            ? t('nft.rules.noBuyNow')
            : t('nft.rules.buyNow', { amount: f.money(r.buyNow, nft.asset) }),
          t('nft.rules.hold'),
        ];
  return (
    <section className="card nft-rules" aria-labelledby={heading} data-testid="nft-rules">
      <h2 id={heading}>{t('nft.rules.title')}</h2>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
        <li>{t('nft.rules.fee', { share: f.percent(r.platformFeeBps) })}</li>
      </ul>
      <ReserveMark nft={nft} />
    </section>
  );
}

/** The bid history, newest first: masked bidders, amounts, what became of each bid, the end after it. */
function Bids({ nft, bids }: { nft: NftView; bids: NftBid[] }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  const heading = useId();
  return (
    <section className="card" aria-labelledby={heading}>
      <h2 id={heading}>{t('nft.bids.title')}</h2>
      {bids.length === 0 ? (
        <Empty text={t('nft.bids.none')} />
      ) : (
        <ol className="nft-bids" data-testid="nft-bids">
          {bids.map((b) => (
            <li key={b.id} data-bid={b.id} data-state={b.state} data-mine={b.mine || undefined}>
              <span>{b.mine ? t('nft.bids.you') : <span dir="ltr">{b.bidder}</span>}</span>
              <strong>{f.exact(b.amount, nft.asset)}</strong>
              <span className="nft-chip" data-state={b.state}>
                <span aria-hidden="true">{b.state === 'leading' || b.state === 'won' ? '▲ ' : '▽ '}</span>
                {t(`nft.bids.state.${b.state}`)}
              </span>
              <time className="muted small" dateTime={b.createdAt}>
                {f.date(b.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Bid (with the least next bid said) or buy: each asks for a quote, then the confirm step shows it. */
function Offer({ nft, onQuote }: { nft: NftView; onQuote: (q: NftQuote) => void }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const least = nft.minNextBid;
  const ask = async (kind: 'bid' | 'buy') => {
    setError('');
    if (kind === 'bid' && (least === null || !bidReaches(amount, least, nft.asset))) {
      setError(t('nft.offer.tooLow', { amount: least ? f.exact(least, nft.asset) : '' }));
      return;
    }
    setBusy(true);
    try {
      onQuote(
        await callApi('quoteNft', {
          body: { dropId: String(nft.id), kind, ...(kind === 'bid' ? { amount: amount.trim() } : {}) },
        }),
      );
    } catch (failure) {
      setError(refusalText(failure, t('state.error')));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void ask('bid');
  };
  const buyPrice = nft.rules.saleType === 'fixed' ? nft.rules.startPrice : nft.rules.buyNow;
  return (
    <section className="card nft-offer" aria-label={t('nft.offer.label')}>
      {nft.rules.saleType === 'auction' ? (
        <form onSubmit={submit} noValidate>
          <Field
            label={t('nft.offer.amount', { asset: nft.asset })}
            hint={least ? t('nft.offer.least', { amount: f.exact(least, nft.asset) }) : undefined}
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            data-testid="nft-bid-amount"
          />
          <button type="submit" className="button primary" disabled={busy}>
            {t('nft.offer.bid')}
          </button>
        </form>
      ) : null}
      {buyPrice ? (
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => void ask('buy')}
          data-testid="nft-buy"
        >
          {t('nft.offer.buy', { amount: f.money(buyPrice, nft.asset) })}
        </button>
      ) : null}
      <FormError message={error} />
    </section>
  );
}

function Drop({ id }: { id: number }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  const book = useCurrentBook();
  const signedIn = useClientState((s) => s.isLogin);
  const userId = useClientState((s) => s.userInfo?.id ?? 0);
  const { pathname } = useLocation();
  const client = useQueryClient();
  const query = useQuery(nftQueries.detail(book, userId, id));
  const [quote, setQuote] = useState<NftQuote | null>(null);
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  const { nft, bids, receivedAt } = query.data;
  return (
    <>
      <h1 className="page-title">{nft.name}</h1>
      <NftNav />
      <div className="nft-detail">
        <img className="nft-art" src={nft.imageUrl} alt={t('nft.artworkOf', { name: nft.name })} />
        <div className="nft-detail-side">
          <StateChip nft={nft} />
          {nft.description ? <p>{nft.description}</p> : null}
          <Facts facts={nftFacts(nft, receivedAt, t, f)} testId="nft-facts" mark="fact" />
          {nft.state === 'live' && signedIn ? <Offer nft={nft} onQuote={setQuote} /> : null}
          {nft.state === 'live' && !signedIn ? (
            <LoginLinks login={`/pass/login?${new URLSearchParams({ return: pathname }).toString()}`} />
          ) : null}
        </div>
      </div>
      <Rules nft={nft} />
      <Bids nft={nft} bids={bids} />
      {quote ? (
        <ConfirmNft
          key={quote.quoteId}
          first={quote}
          name={nft.name}
          onClose={() => setQuote(null)}
          onDone={() => void client.invalidateQueries({ queryKey: nftQueries.all })}
        />
      ) : null}
    </>
  );
}

/** /nfts/:id: one NFT with the spec's fields, its sale's rules, its bid history, and bid or buy. */
export default function Detail() {
  use(nftTexts);
  const { t } = useTranslation();
  const { id } = useParams();
  const dropId = Number(id);
  return (
    <div className="container page nft-page">
      {Number.isSafeInteger(dropId) && dropId > 0 ? <Drop id={dropId} /> : <Empty text={t('nft.missing')} />}
    </div>
  );
}
