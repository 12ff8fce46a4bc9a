import type { MyNft, NftSendQuote, WithdrawalAddress } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { callApi } from '../../app/api.ts';
import { newRequestId } from '../../app/requestId.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { Hex, refusalText, useNftFormat } from './parts.tsx';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The addresses an NFT can go to: the customer's withdrawal addresses on an EVM chain, the
 * self-custody wallet's (proved theirs) first. One that looks still in its 24 h lock by this
 * device's clock says until when; the server judges the lock by its own clock (10064).
 */
export function sendableAddresses(addresses: readonly WithdrawalAddress[], now: number) {
  return addresses
    .filter((a) => EVM_ADDRESS.test(a.address))
    .map((a) => ({ ...a, locked: Date.parse(a.usableFrom) > now }))
    .sort((a, b) => Number(b.owned) - Number(a.owned) || a.id - b.id);
}

/** The addresses offered, each a radio: the self-custody wallet's named so, a locked one shown until when. */
function AddressChoices({
  list,
  chosen,
  onChoose,
}: {
  list: ReturnType<typeof sendableAddresses>;
  chosen: number | null;
  onChoose: (id: number) => void;
}) {
  const { t } = useTranslation();
  const f = useNftFormat();
  return (
    <fieldset className="nft-addresses">
      <legend>{t('nft.send.to')}</legend>
      {list.map((a) => (
        <label key={a.id} className="nft-address" data-address={a.address}>
          <input
            type="radio"
            name="address"
            value={a.id}
            checked={chosen === a.id}
            onChange={() => onChoose(a.id)}
          />
          <span>
            <strong>{a.owned ? t('nft.send.selfCustody') : a.label || t('nft.send.other')}</strong>{' '}
            <Hex value={a.address} />
            {a.locked ? (
              <span className="small muted"> {t('nft.send.locked', { at: f.date(a.usableFrom) })}</span>
            ) : null}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** Step one: which address. */
function ChooseAddress({
  nft,
  onQuote,
  onClose,
}: {
  nft: MyNft;
  onQuote: (q: NftSendQuote) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dialog = useModal();
  const titleId = useId();
  const addresses = useQuery({
    queryKey: ['wallet', 'addresses', 'nft-send'],
    queryFn: () => callApi('listWithdrawalAddresses'),
  });
  const [chosen, setChosen] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const list = addresses.data ? sendableAddresses(addresses.data, Date.now()) : [];
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen === null) return setError(t('nft.send.choose'));
    setBusy(true);
    setError('');
    try {
      onQuote(await callApi('quoteNftSend', { body: { nftId: String(nft.id), addressId: String(chosen) } }));
    } catch (failure) {
      setError(refusalText(failure, t('state.error')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      dialogRef={dialog}
      className="modal nft-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="nft-send"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <h2 id={titleId}>{t('nft.send.title', { name: nft.name })}</h2>
        {addresses.isPending ? <p>{t('state.loading')}</p> : null}
        {addresses.isError ? <FormError message={addresses.error.message} /> : null}
        {addresses.data && list.length === 0 ? (
          <p>
            {t('nft.send.noAddress')} <Link to="/profile/addresses">{t('nft.send.addAddress')}</Link>
          </p>
        ) : null}
        <AddressChoices list={list} chosen={chosen} onChoose={setChosen} />
        <FormError message={error} />
        <div className="row end">
          <button type="button" className="button ghost" onClick={() => dialog.current?.close()}>
            {t('nft.quote.cancel')}
          </button>
          <button type="submit" className="button primary" disabled={busy || list.length === 0}>
            {t('nft.send.review')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The confirmation code: from the authenticator, or mailed now on request. */
function CodeStep({
  quote,
  code,
  setCode,
}: {
  quote: NftSendQuote;
  code: string;
  setCode: (c: string) => void;
}) {
  const { t } = useTranslation();
  const [mailed, setMailed] = useState('');
  const mail = async () => {
    try {
      await callApi('sendNftCode', { body: { quoteId: quote.quoteId } });
      setMailed(t('nft.send.mailed'));
    } catch (error) {
      setMailed(refusalText(error, t('state.error')));
    }
  };
  return (
    <>
      {quote.confirmation === 'mail' ? (
        <p>
          <button type="button" className="button ghost" onClick={() => void mail()}>
            {t('nft.send.mail')}
          </button>{' '}
          <span role="status">{mailed}</span>
        </p>
      ) : null}
      <Field
        label={quote.confirmation === 'totp' ? t('nft.send.totp') : t('nft.send.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        data-testid="nft-send-code"
      />
    </>
  );
}

/** Step two: the transfer as quoted, the confirmation code (authenticator, or mailed now), then the send. */
function ConfirmSend({
  first,
  onClose,
  onDone,
}: {
  first: NftSendQuote;
  onClose: () => void;
  onDone: (nft: MyNft) => void;
}) {
  const { t } = useTranslation();
  const dialog = useModal();
  const [code, setCode] = useState('');
  const { quote, busy, failure, submit } = useQuoteCommit<NftSendQuote, MyNft>({
    first,
    newId: newRequestId,
    commit: (q, requestId) =>
      callApi('sendNft', { body: { quoteId: q.quoteId, requestId, code: code.trim() } }),
    renew: (q) =>
      callApi('quoteNftSend', { body: { nftId: String(q.nftId), addressId: String(q.addressId) } }),
    autoRenew: false,
    readSeconds: 0,
    onDone: (done) => {
      dialog.current?.close();
      onDone(done);
    },
  });
  const facts: Fact[] = [
    { name: 'address', label: t('nft.send.to'), shown: <Hex value={quote.address} />, value: quote.address },
    { name: 'chain', label: t('nft.chain'), shown: <span dir="ltr">{quote.chain}</span> },
    { name: 'contract', label: t('nft.contract'), shown: <Hex value={quote.contractAddress} /> },
    { name: 'token', label: t('nft.tokenId'), shown: <Hex value={quote.tokenId} /> },
  ];
  return (
    <QuoteConfirm
      dialog={dialog}
      title={t('nft.send.confirmTitle')}
      label={t('nft.send.figures')}
      testId="nft-send-confirm"
      className="nft-dialog"
      onClose={onClose}
      onConfirm={() => void submit()}
      failure={
        failure ? (
          <p className="form-error" role="alert">
            {refusalText(failure, t('state.error'))}
          </p>
        ) : null
      }
      cancel={t('nft.quote.cancel')}
      confirm={busy ? t('state.sending') : t('nft.send.confirm')}
      disabled={busy || !/^\d{6}$/.test(code.trim())}
    >
      <Facts facts={facts} testId="nft-send-figures" />
      <p className="small">{t('nft.send.final')}</p>
      <CodeStep quote={quote} code={code} setCode={setCode} />
    </QuoteConfirm>
  );
}

/** Sending one NFT: choose the address, then confirm the transfer with a code. */
export function SendNft({
  nft,
  onClose,
  onDone,
}: {
  nft: MyNft;
  onClose: () => void;
  onDone: (nft: MyNft) => void;
}) {
  const [quote, setQuote] = useState<NftSendQuote | null>(null);
  return quote ? (
    <ConfirmSend first={quote} onClose={onClose} onDone={onDone} />
  ) : (
    <ChooseAddress nft={nft} onQuote={setQuote} onClose={onClose} />
  );
}
