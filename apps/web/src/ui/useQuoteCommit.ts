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
 */
export function useQuoteCommit<Quote, Done>(options: {
  first: Quote;
  commit: (quote: Quote, requestId: string) => Promise<Done>;
  renew: (quote: Quote) => Promise<Quote>;
  onDone: (done: Done, quote: Quote) => void;
  renewedText: string;
}) {
  const [quote, setQuote] = useState(options.first);
  const [requestId, setRequestId] = useState(newRequestId);
  const [renewed, setRenewed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const submit = async () => {
    setBusy(true);
    setFailure(null);
    try {
      options.onDone(await options.commit(quote, requestId), quote);
    } catch (error) {
      if (error instanceof ApiFailure && error.code === Code.PRICE_CHANGED) {
        try {
          setQuote(await options.renew(quote));
          setRequestId(newRequestId());
          setRenewed(true);
          announce(options.renewedText);
        } catch (again) {
          setFailure(again);
        }
      } else setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return { quote, renewed, busy, failure, submit };
}
