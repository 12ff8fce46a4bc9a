import {
  Code,
  type Network,
  type WithdrawalAddress,
  type WithdrawalQuote,
  withdrawalBody,
  withdrawalQuoteBody,
} from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type RefObject, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatPercent } from '../../app/money.ts';
import { announce } from '../../ui/announce.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { walletQueries } from '../transfers/queries.ts';
import { FeePreview } from './FeePreview.tsx';
import {
  ClosedNetworks,
  isBelow,
  LockState,
  NetworkPicker,
  networkWords,
  useNow,
  useWalletFormat,
  WalletLinks,
  WalletPage,
  WithNetworks,
} from './parts.tsx';

/** The code of the confirm step, as the commit checks it. */
const codeBody = z.pick(withdrawalBody, { code: true });

type QuoteBody = { network: string; addressId: number; amount: string };
/** What the confirm step shows and commits: one quote of one request. */
type Quoted = { body: QuoteBody; quote: WithdrawalQuote };

/** "Send code" and its countdown before it may be sent again (a mailed code). */
function SendCode({
  quoteId,
  renew,
  onError,
}: {
  quoteId: string;
  /** The quote ran out before its code was asked for: renewed in place, the new quote's id. */
  renew: () => Promise<string>;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const [until, setUntil] = useState(0);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const waiting = until > now;
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [waiting]);
  const seconds = Math.ceil((until - now) / 1000);
  return (
    <div className="send-code">
      <button
        type="button"
        className="button ghost"
        disabled={busy || waiting}
        data-testid="send-code"
        onClick={async () => {
          setBusy(true);
          onError('');
          try {
            // A code is only sent for a pending quote, and its mail names that quote's figures.
            const answer = await callApi('sendWithdrawalCode', { body: { quoteId } }).catch(
              async (error: unknown) => {
                if (!(error instanceof ApiFailure && error.code === Code.PRICE_CHANGED)) throw error;
                return callApi('sendWithdrawalCode', { body: { quoteId: await renew() } });
              },
            );
            setSent(true);
            setNow(Date.now());
            setUntil(Date.now() + answer.resendInSeconds * 1000);
            announce(t('wallet.confirm.codeSent'));
          } catch (error) {
            onError(error instanceof ApiFailure ? error.message : t('state.error'));
          } finally {
            setBusy(false);
          }
        }}
      >
        {waiting
          ? t('wallet.confirm.resendIn', {
              time: f.count(seconds),
            })
          : sent
            ? t('wallet.confirm.resend')
            : t('wallet.confirm.sendCode')}
      </button>
      {sent ? <p className="small muted">{t('wallet.confirm.codeSent')}</p> : null}
    </div>
  );
}

/** The quote's figures: amount, fee and rate, amount received, arrival. */
function WithdrawalFigures({ quote, networkName }: { quote: WithdrawalQuote; networkName: string }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const money = (name: 'amount' | 'fee' | 'receive', label: string): Fact => ({
    name,
    label,
    value: quote[name],
    shown: f.money(quote[name], quote.asset),
  });
  const address = (
    <code dir="ltr" className="wallet-address">
      {quote.address}
    </code>
  );
  return (
    <Facts
      mark="fact"
      testId="withdraw-figures"
      facts={[
        {
          name: 'network',
          label: t('wallet.network'),
          shown: networkWords(t, quote.asset, { name: networkName }),
        },
        { name: 'address', label: t('wallet.withdraw.address'), shown: address },
        money('amount', t('wallet.withdraw.amountOut')),
        money('fee', t('wallet.withdraw.fee', { rate: formatPercent(f.language, quote.feeRate) })),
        money('receive', t('wallet.withdraw.receive')),
        { name: 'arrival', label: t('wallet.withdraw.arrival'), shown: f.minutes(quote.arrivalMinutes) },
      ]}
    />
  );
}

/**
 * The commit of the quote shown with the code typed (the kit's quote then commit); done, the
 * records. A refusal is the form's to word (the wrong code under its field).
 */
function useWithdrawalCommit(
  first: Quoted,
  dialog: RefObject<HTMLDialogElement | null>,
  form: { values: { code: string }; showFailure: (error: unknown) => void },
) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useQuoteCommit({
    first,
    commit: (q, requestId) =>
      callApi('withdrawal', { body: { code: form.values.code.trim(), quoteId: q.quote.quoteId, requestId } }),
    renew: async (q) => ({ body: q.body, quote: await callApi('quoteWithdrawal', { body: q.body }) }),
    onDone: (done) => {
      void queryClient.invalidateQueries({ queryKey: walletQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      dialog.current?.close();
      announce(t('wallet.withdraw.done', { amount: f.money(done.amount, done.asset) }));
      navigate('/profile/withdrawals');
    },
    renewedText: t('wallet.confirm.renewed'),
    onFailure: form.showFailure,
  });
}

/**
 * The confirm step (the product kit's quote confirm): the quote's figures, the code (authenticator,
 * or mailed now), and the commit of exactly that quote. A quote that ran out (10032) is renewed in
 * place and the customer confirms the figures shown; the code's refusal is said under its field.
 */
function ConfirmWithdrawal({
  first,
  networkName,
  onClose,
}: {
  first: Quoted;
  networkName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const dialog = useModal();
  // The code is checked here; the commit (the quote shown, its request id) is the kit's.
  const form = useContractForm({
    schema: codeBody,
    initial: { code: '' },
    toBody: (values) => values,
    message: () => t('wallet.confirm.codeInvalid'),
    codeFields: { [Code.VERIFICATION_CODE_WRONG]: 'code' },
    submit: async () => {},
  });
  const { quote, renewed, busy, submit, renewNow } = useWithdrawalCommit(first, dialog, form);
  const mailed = quote.quote.confirmation === 'mail';
  return (
    <QuoteConfirm
      dialog={dialog}
      title={t('wallet.confirm.title')}
      label={t('wallet.confirm.title')}
      testId="withdraw-confirm"
      className="wallet-confirm"
      onClose={onClose}
      onConfirm={() => {
        form.setFailure('');
        if (Object.keys(form.validate().errors).length === 0) void submit();
      }}
      renewed={renewed && t('wallet.confirm.renewed')}
      failure={<FormError message={form.failure} />}
      cancel={t('wallet.confirm.cancel')}
      confirm={busy ? t('wallet.confirm.sending') : t('wallet.confirm.confirm')}
      disabled={busy}
    >
      <WithdrawalFigures quote={quote.quote} networkName={networkName} />
      {mailed ? (
        <SendCode
          quoteId={quote.quote.quoteId}
          renew={async () => (await renewNow()).quote.quoteId}
          onError={form.setFailure}
        />
      ) : (
        <p className="small muted">{t('wallet.confirm.totpHint')}</p>
      )}
      <Field
        label={mailed ? t('wallet.confirm.mailCode') : t('wallet.confirm.totpCode')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        dir="ltr"
        {...form.field('code')}
      />
    </QuoteConfirm>
  );
}

/** The address book of one network as radio choices, each with its lock timer. */
function AddressChoice({
  addresses,
  value,
  error,
  onChange,
}: {
  addresses: WithdrawalAddress[];
  value: string;
  error?: string | undefined;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const now = useNow();
  const id = useId();
  return (
    <fieldset className="wallet-choice product-choice" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{t('wallet.withdraw.address')}</legend>
      {addresses.length === 0 ? (
        <p className="muted">{t('wallet.withdraw.noAddresses')}</p>
      ) : (
        <ul className="wallet-list">
          {addresses.map((a) => {
            const locked = Date.parse(a.usableFrom) > now;
            return (
              <li key={a.id}>
                <label className="wallet-choice-option product-option" data-address={a.address.toLowerCase()}>
                  <input
                    type="radio"
                    name="addressId"
                    value={String(a.id)}
                    checked={value === String(a.id)}
                    disabled={locked}
                    onChange={() => onChange(String(a.id))}
                  />
                  <span>
                    <strong>{a.label || t('wallet.addresses.noLabel')}</strong>{' '}
                    <code dir="ltr" className="wallet-address">
                      {a.address}
                    </code>{' '}
                    <LockState address={a} now={now} />
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <p className="small">
        <Link to="/profile/addresses">{t('wallet.withdraw.manageAddresses')}</Link>
      </p>
      {/* No field of its own to focus (none may be usable yet): spoken as it shows. */}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The quote of what the form holds; the server's refusal under the field it is about. */
function useQuoteForm(networks: Network[], onQuoted: (quoted: Quoted) => void) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  /** The network's range, checked here as the server checks it (10038, 10039), address or not. */
  const outOfRange = (values: { network: string; amount: string }): string | undefined => {
    const n = networks.find((x) => x.id === values.network);
    if (!n) return undefined;
    if (isBelow(values.amount, n.withdrawalMinimum, n.asset))
      return t('wallet.withdraw.belowMinimum', { minimum: f.exact(n.withdrawalMinimum, n.asset) });
    if (isBelow(n.withdrawalMaximum, values.amount, n.asset))
      return t('wallet.withdraw.aboveMaximum', { maximum: f.exact(n.withdrawalMaximum, n.asset) });
    return undefined;
  };
  return useContractForm({
    schema: withdrawalQuoteBody,
    initial: { network: networks[0]?.id ?? '', addressId: '', amount: '' },
    toBody: (values) => ({
      network: values.network,
      ...(values.addressId ? { addressId: Number(values.addressId) } : {}),
      amount: values.amount,
    }),
    message: (field) => t(`wallet.withdraw.invalid.${field}`),
    check: (values) => {
      const amount = outOfRange(values);
      return {
        ...(values.addressId ? {} : { addressId: t('wallet.withdraw.invalid.addressId') }),
        ...(amount ? { amount } : {}),
      };
    },
    // The server's words under the field they are about (limits and the waiting time name figures).
    codeFields: {
      [Code.BELOW_MINIMUM]: 'amount',
      [Code.ABOVE_MAXIMUM]: 'amount',
      [Code.DAILY_LIMIT_REACHED]: 'amount',
      [Code.INSUFFICIENT_BALANCE]: 'amount',
      [Code.ADDRESS_LOCKED]: 'addressId',
      [Code.RECEIVING_ADDRESS_MISSING]: 'addressId',
    },
    submit: async (body) => {
      const quote = await callApi('quoteWithdrawal', { body });
      onQuoted({ body: body as QuoteBody, quote });
    },
  });
}

/**
 * The amount's hint on a network: what is available, the day's limit used, the network's range;
 * and the limit of its asset (none known yet: undefined).
 */
function useAmountHint(userId: number, network: Network | undefined) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const limits = useQuery(walletQueries.limits(userId));
  const balances = useQuery(ledgerQueries.balances(userId, 'live'));
  if (!network) return { hint: '', limit: undefined };
  const available = balances.data?.balances.find((b) => b.asset === network.asset)?.available;
  const limit = limits.data?.find((l) => l.asset === network.asset);
  const hint = [
    available !== undefined
      ? t('wallet.withdraw.available', { amount: f.money(available, network.asset) })
      : '',
    limit
      ? t('wallet.withdraw.limit', {
          used: f.money(limit.used, limit.asset),
          limit: f.money(limit.limit, limit.asset),
        })
      : '',
    t('wallet.withdraw.range', {
      minimum: f.exact(network.withdrawalMinimum, network.asset),
      maximum: f.exact(network.withdrawalMaximum, network.asset),
    }),
  ]
    .filter(Boolean)
    .join(' · ');
  return { hint, limit };
}

function WithdrawForm({ userId, networks: offered }: { userId: number; networks: Network[] }) {
  const { t } = useTranslation();
  const [quoted, setQuoted] = useState<Quoted | null>(null);
  const addresses = useQuery(walletQueries.addresses(userId));
  // Only the networks the platform sends on are offered; the others are named with the reason.
  const networks = offered.filter((n) => n.withdrawable);
  const form = useQuoteForm(networks, setQuoted);
  const network = networks.find((n) => n.id === form.values.network) ?? networks[0];
  const { hint, limit } = useAmountHint(userId, network);
  const closed = <ClosedNetworks networks={offered.filter((n) => !n.withdrawable)} />;
  if (!network) return closed;
  if (addresses.isPending) return <Loading />;
  if (addresses.isError)
    return <Failed message={addresses.error.message} onRetry={() => void addresses.refetch()} />;
  return (
    <>
      <form
        className="card pass-form wallet-form"
        noValidate
        data-testid="withdraw-form"
        onSubmit={(event) => void form.onSubmit(event)}
      >
        <NetworkPicker
          networks={networks}
          value={network.id}
          error={form.errors.network}
          onChange={(id) => {
            form.setValue('network', id);
            form.setValue('addressId', '');
          }}
        />
        <AddressChoice
          addresses={addresses.data.filter((a) => a.network === network.id)}
          value={form.values.addressId}
          error={form.errors.addressId}
          onChange={(id) => form.setValue('addressId', id)}
        />
        <Field
          label={t('wallet.withdraw.amount', { asset: network.asset })}
          inputMode="decimal"
          autoComplete="off"
          hint={hint}
          {...form.field('amount')}
        />
        <FeePreview network={network} amount={form.values.amount} />
        {limit && !limit.verified ? (
          <p className="small muted">
            {t('wallet.withdraw.verifyForMore')}{' '}
            <Link to="/profile/verification">{t('title.verification')}</Link>
          </p>
        ) : null}
        <FormError message={form.failure} />
        <SubmitButton busy={form.busy}>
          {form.busy ? t('wallet.withdraw.reviewing') : t('wallet.withdraw.review')}
        </SubmitButton>
      </form>
      {closed}
      {quoted ? (
        <ConfirmWithdrawal
          first={quoted}
          networkName={networks.find((n) => n.id === quoted.quote.network)?.name ?? quoted.quote.network}
          onClose={() => setQuoted(null)}
        />
      ) : null}
    </>
  );
}

/** Withdraw (/profile/withdraw): network, an address of my book, amount; review the quote, confirm with a code. */
export default function Withdraw() {
  const { t } = useTranslation();
  return (
    <WalletPage title={t('title.withdraw')}>
      {(userId) => (
        <div className="wallet-page">
          <WithNetworks userId={userId}>
            {(networks) => <WithdrawForm userId={userId} networks={networks} />}
          </WithNetworks>
          <WalletLinks current="/profile/withdraw" />
        </div>
      )}
    </WalletPage>
  );
}
