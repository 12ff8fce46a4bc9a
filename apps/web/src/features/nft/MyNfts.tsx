import type { MyNft } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { use, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { LoginLinks } from '../../shell/LoginLinks.tsx';
import { announce } from '../../ui/announce.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { Countdown, Hex, NftNav, useNftFormat } from './parts.tsx';
import { nftQueries } from './queries.ts';
import { SendNft } from './Send.tsx';
import { nftTexts } from './texts.ts';
import './nft.css';

const HOLDING_MARKS = { held: '●', sending: '◷', sent: '➜' } as const;

function holdingFacts(n: MyNft, t: TFunction, f: ReturnType<typeof useNftFormat>): Fact[] {
  return [
    { name: 'creator', label: t('nft.creator'), shown: n.creator },
    { name: 'chain', label: t('nft.chain'), shown: <span dir="ltr">{n.chain}</span> },
    { name: 'contract', label: t('nft.contract'), shown: <Hex value={n.contractAddress} /> },
    { name: 'token', label: t('nft.tokenId'), shown: <Hex value={n.tokenId} />, value: n.tokenId },
    { name: 'price', label: t('nft.mineList.paid'), shown: f.exact(n.price, n.asset), value: n.price },
    {
      name: 'donation',
      label: t('nft.mineList.donation', { charity: n.charityName }),
      shown: f.exact(n.donation, n.asset),
      value: n.donation,
    },
    { name: 'acquired', label: t('nft.mineList.acquired'), shown: f.date(n.acquiredAt) },
    ...(n.sentTo
      ? [
          {
            name: 'sentTo',
            label: t('nft.mineList.sentTo'),
            shown: <Hex value={n.sentTo} testId="nft-sent-to" />,
            value: n.sentTo,
          },
        ]
      : []),
    ...(n.txHash
      ? [{ name: 'tx', label: t('nft.mineList.tx'), shown: <Hex value={n.txHash} />, value: n.txHash }]
      : []),
  ];
}

/** One NFT the customer owns (or sent): the chain, what was paid and given, and the send. */
function Holding({ n, book, onSend }: { n: MyNft; book: string; onSend: (n: MyNft) => void }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  return (
    <li className="card nft-holding" data-holding={n.id} data-state={n.state}>
      <img className="nft-art small" src={n.imageUrl} alt={t('nft.artworkOf', { name: n.name })} />
      <div>
        <h3>
          <Link to={`/nfts/${n.dropId}`}>{n.name}</Link>
        </h3>
        <span className="nft-chip" data-state={n.state} data-testid="nft-holding-state">
          <span aria-hidden="true">{HOLDING_MARKS[n.state]}</span> {t(`nft.holding.${n.state}`)}
        </span>
        <Facts facts={holdingFacts(n, t, f)} mark="fact" />
        {n.state === 'held' && book === 'live' ? (
          <button type="button" className="button" onClick={() => onSend(n)} data-testid="nft-send-open">
            {t('nft.send.open')}
          </button>
        ) : null}
        {n.state === 'held' && book === 'demo' ? <p className="small muted">{t('nft.send.demo')}</p> : null}
        <p className="small">
          <Link to={`/nfts/log?drop=${n.dropId}`}>{t('nft.mineList.checkDonation')}</Link>
        </p>
      </div>
    </li>
  );
}

function Owned({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const client = useQueryClient();
  const mine = useQuery(nftQueries.mine(book, userId));
  const [sending, setSending] = useState<MyNft | null>(null);
  if (mine.isPending) return <Loading />;
  if (mine.isError) return <Failed message={mine.error.message} onRetry={() => void mine.refetch()} />;
  if (mine.data.length === 0) return <Empty text={t('nft.mineList.empty')} />;
  return (
    <>
      <ul className="nft-holdings" data-testid="nft-mine">
        {mine.data.map((n) => (
          <Holding key={n.id} n={n} book={book} onSend={setSending} />
        ))}
      </ul>
      {sending ? (
        <SendNft
          nft={sending}
          onClose={() => setSending(null)}
          onDone={(done) => {
            announce(t('nft.send.done', { address: done.sentTo ?? '' }));
            void client.invalidateQueries({ queryKey: nftQueries.all });
          }}
        />
      ) : null}
    </>
  );
}

function MyBids({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  const book = useCurrentBook();
  const bids = useQuery(nftQueries.myBids(book, userId));
  if (bids.isPending) return <Loading />;
  if (bids.isError) return <Failed message={bids.error.message} onRetry={() => void bids.refetch()} />;
  if (bids.data.bids.length === 0) return <Empty text={t('nft.myBids.empty')} />;
  return (
    <ul className="nft-my-bids" data-testid="nft-my-bids">
      {bids.data.bids.map(({ nft, bid }) => (
        <li key={bid.id} className="card" data-bid={bid.id} data-state={bid.state}>
          <Link to={`/nfts/${nft.id}`}>{nft.name}</Link>{' '}
          <span className="nft-chip" data-state={bid.state}>
            <span aria-hidden="true">{bid.state === 'leading' ? '▲' : '▽'}</span>{' '}
            {t(`nft.bids.state.${bid.state}`)}
          </span>{' '}
          {t('nft.myBids.mine', { amount: f.exact(bid.amount, nft.asset) })}
          {nft.remainingSeconds !== null ? (
            <>
              {' · '}
              <Countdown remainingSeconds={nft.remainingSeconds} receivedAt={bids.data.receivedAt} compact />
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** /nfts/mine: the NFTs the customer owns (sent to an address from here) and the auctions they bid on. */
export default function MyNfts() {
  use(nftTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  const owned = useId();
  const bidding = useId();
  return (
    <div className="container page nft-page">
      <h1 className="page-title">{t('title.myNfts')}</h1>
      <NftNav />
      {user ? (
        <>
          <section aria-labelledby={owned}>
            <h2 id={owned}>{t('nft.mineList.title')}</h2>
            <Owned userId={user.id} />
          </section>
          <section aria-labelledby={bidding}>
            <h2 id={bidding}>{t('nft.myBids.title')}</h2>
            <MyBids userId={user.id} />
          </section>
        </>
      ) : (
        <div className="row">
          <LoginLinks login="/pass/login?return=%2Fnfts%2Fmine" />
        </div>
      )}
    </div>
  );
}
