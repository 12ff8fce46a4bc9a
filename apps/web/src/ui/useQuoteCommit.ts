import { Code } from '@swx/contract';
import { useState } from 'react';
import { ApiFailure } from '../app/api.ts';
import { newRequestId } from '../app/requestId.ts';
import { announce } from './announce.ts';

/**
 * The confirm step of quote then commit: the quote shown, one request id per attempt (a retry
 * after a lost answer commits once), busy, and the refusal to word. `submit` commits the quote
 * shown; a quote that ran out (10032) is renewed in place with `renew`, under a new request id,
 * and `renewedText` is said: nothing is committed until the customer confirms the figures shown.
 * With `autoRenew: false` a 10032 is a refusal like any other and the customer asks for the new
 * quote (`renew`); without `renew` there is no new quote to ask for. With `onFailure` a refusal is
 * the caller's to word (on its fields) instead of `failure`; `renewNow` renews for a step of the
 * caller's own (sending a code for the quote) and answers the new quote, its failure the caller's.
 */
export function useQuoteCommit<Quote, Done>(options: {
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
}) {
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
    try {
      options.onDone(await options.commit(quote, requestId), quote);
    } catch (error) {
      if (
        error instanceof ApiFailure &&
        error.code === Code.PRICE_CHANGED &&
        options.renew &&
        options.autoRenew !== false
      ) {
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
  return { quote, renewed, busy, failure, submit, renew, renewNow };
}
