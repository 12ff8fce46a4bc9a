import { Code } from '@swx/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../app/api.ts';
import { newRequestId } from '../app/requestId.ts';
import { announce } from './announce.ts';

export type QuoteCommitOptions<Quote, Done> = {
  first: Quote;
  commit: (quote: Quote, requestId: string) => Promise<Done>;
  renew?: (quote: Quote) => Promise<Quote>;
  onDone: (done: Done, quote: Quote) => void;
  renewedText?: string;
  /** Renew at once when the server says the quote ran out (10032); true unless said. */
  autoRenew?: boolean;
  /** How a request id is made (the app's by default). */
  newId?: () => string;
  /** Takes each refusal instead of `failure` (a form that words it on its fields). */
  onFailure?: (error: unknown) => void;
  /** The fewest seconds a quote must have left to be shown (30 unless said); fewer: a fresh one first. */
  readSeconds?: number;
  /** When a quote runs out (epoch seconds): its `expiresAt` unless said; undefined: it does not. */
  expiresAt?: (quote: Quote) => number | undefined;
};

/**
 * The confirm step of quote then commit: the quote shown, one request id per attempt (a retry
 * after a lost answer commits once), busy, and the refusal to word. `submit` commits the quote
 * shown; a quote that ran out (10032) is renewed in place with `renew`, under a new request id,
 * and `renewedText` is said: nothing is committed until the customer confirms the figures shown.
 * With `autoRenew: false` a 10032 is a refusal like any other and the customer asks for the new
 * quote (`renew`); without `renew` there is no new quote to ask for. With `onFailure` a refusal is
 * the caller's to word (on its fields) instead of `failure`; `renewNow` renews for a step of the
 * caller's own (sending a code for the quote) and answers the new quote, its failure the caller's.
 *
 * Time to read (WCAG 2.2.1): a quote with fewer than `readSeconds` left (its `expiresAt`, epoch
 * seconds) is never the one shown: the hook asks `renew` for a fresh one first (`ready` is false
 * until it has), so a confirm step does not open on figures about to run out; `renew` is also
 * the customer's "more time". While a commit is sent, "Sending…" is said (politely).
 */
export function useQuoteCommit<Quote, Done>(options: QuoteCommitOptions<Quote, Done>) {
  const { t } = useTranslation();
  const newId = options.newId ?? newRequestId;
  const [quote, setQuote] = useState(options.first);
  const [requestId, setRequestId] = useState(newId);
  const [renewed, setRenewed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setShown] = useState<unknown>(null);
  const setFailure = (error: unknown) => {
    if (error !== null && options.onFailure) options.onFailure(error);
    else setShown(error);
  };
  const renewNow = async (): Promise<Quote> => {
    if (!options.renew) return quote;
    const next = await options.renew(quote);
    setQuote(next);
    setRequestId(newId());
    setRenewed(true);
    if (options.renewedText) announce(options.renewedText);
    return next;
  };
  const submit = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    announce(t('state.sending'));
    try {
      options.onDone(await options.commit(quote, requestId), quote);
    } catch (error) {
      if (renewsWhenRefused(error, options)) {
        try {
          await renewNow();
        } catch (again) {
          setFailure(again);
        }
      } else setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const ready = useFreshFirst(
    options,
    (next) => {
      setQuote(next);
      setRequestId(newId());
    },
    setFailure,
  );
  /** Asks for a new quote now (the customer's "new quote"). */
  const renew = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await renewNow();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return { quote, ready, renewed, busy, failure, submit, renew, renewNow };
}

/** Whether a refusal renews the quote at once: it ran out (10032), and the caller has not said otherwise. */
function renewsWhenRefused(error: unknown, options: { renew?: unknown; autoRenew?: boolean }): boolean {
  return (
    error instanceof ApiFailure &&
    error.code === Code.PRICE_CHANGED &&
    options.renew !== undefined &&
    options.autoRenew !== false
  );
}

/**
 * A first quote about to run out is renewed before it is shown, once: false until it is (or at
 * once true when it has time enough to be read, or there is no renewing).
 */
function useFreshFirst<Quote>(
  options: {
    first: Quote;
    renew?: (quote: Quote) => Promise<Quote>;
    readSeconds?: number;
    expiresAt?: (quote: Quote) => number | undefined;
  },
  take: (next: Quote) => void,
  fail: (error: unknown) => void,
): boolean {
  const [ready, setReady] = useState(() => !(options.renew && aboutToExpire(options, options.first)));
  const freshening = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the first quote
  useEffect(() => {
    if (ready || freshening.current || !options.renew) return;
    freshening.current = true;
    options
      .renew(options.first)
      .then(take)
      .catch(fail)
      .finally(() => setReady(true));
  }, []);
  return ready;
}

/** The seconds a quote must have left to be shown, unless the product says. */
const READ_SECONDS = 30;

/** Whether a quote has fewer than the seconds to read it left (never, for one without an expiry). */
function aboutToExpire<Quote>(
  options: { readSeconds?: number; expiresAt?: (quote: Quote) => number | undefined },
  quote: Quote,
): boolean {
  const expiresAt = options.expiresAt
    ? options.expiresAt(quote)
    : (quote as { expiresAt?: unknown }).expiresAt;
  if (typeof expiresAt !== 'number') return false;
  return expiresAt * 1000 - Date.now() < (options.readSeconds ?? READ_SECONDS) * 1000;
}
