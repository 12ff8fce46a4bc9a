import {
  type CreatePriceAlertBody,
  LANGUAGE_TAGS,
  type MarketItem,
  type PriceAlertKind,
} from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type RefObject, Suspense, use, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { announce } from '../../ui/announce.ts';
import { DialogButtons, Field, FormError } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { price } from '../market/live.ts';
import { alertQueries } from './queries.ts';
import { alertTexts } from './texts.ts';
import './pricealerts.css';

const KINDS: readonly { kind: PriceAlertKind; label: 'above' | 'below' | 'move' }[] = [
  { kind: 'above', label: 'above' },
  { kind: 'below', label: 'below' },
  { kind: 'move_pct', label: 'move' },
];

/** What the alert waits for: a labelled group of radio buttons (arrow keys move between them). */
function KindChoice({ kind, onKind }: { kind: PriceAlertKind; onKind: (kind: PriceAlertKind) => void }) {
  const { t } = useTranslation();
  const legendId = useId();
  return (
    <fieldset className="price-alert-kinds" aria-labelledby={legendId}>
      <legend id={legendId}>{t('priceAlerts.kind')}</legend>
      {KINDS.map((k) => (
        <label key={k.kind} className="price-alert-kind">
          <input
            type="radio"
            name="kind"
            value={k.kind}
            checked={kind === k.kind}
            onChange={() => onKind(k.kind)}
          />{' '}
          {t(`priceAlerts.${k.label}`)}
        </label>
      ))}
    </fieldset>
  );
}

/** Sets the alert; on success the list is read again, the dialog closes and the outcome is spoken. */
function useCreateAlert(code: string, dialog: RefObject<HTMLDialogElement | null>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePriceAlertBody) => callApi('createPriceAlert', { body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: alertQueries.all });
      dialog.current?.close();
      announce(t('priceAlerts.created', { code }));
    },
  });
}

/** The "set price alert" form: above or below a price (prefilled with the price now) or a 24-hour move. */
function AlertForm({ item, dialog }: { item: MarketItem; dialog: RefObject<HTMLDialogElement | null> }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const [kind, setKind] = useState<PriceAlertKind>('above');
  const [level, setLevel] = useState(item.price);
  const [percent, setPercent] = useState('5');
  const [repeat, setRepeat] = useState(false);
  const move = kind === 'move_pct';
  const create = useCreateAlert(item.code, dialog);
  const error =
    create.error instanceof ApiFailure ? create.error.message : create.error ? t('state.error') : '';
  return (
    <form
      className="modal-body price-alert-form"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          move
            ? { code: item.code, kind, percent: percent.trim(), repeat }
            : { code: item.code, kind, level: level.trim(), repeat },
        );
      }}
    >
      <KindChoice kind={kind} onKind={setKind} />
      {/* One field: the move's percentage, or the price (keyed, so each starts with its own value). */}
      <Field
        key={move ? 'percent' : 'level'}
        label={move ? t('priceAlerts.percent') : t('priceAlerts.level')}
        hint={
          move
            ? t('priceAlerts.percentHint')
            : t('priceAlerts.levelHint', { price: price(item.price, LANGUAGE_TAGS[language]) })
        }
        name={move ? 'percent' : 'level'}
        inputMode="decimal"
        autoComplete="off"
        required
        value={move ? percent : level}
        onChange={(event) => (move ? setPercent : setLevel)(event.target.value)}
      />
      <label className="price-alert-repeat">
        <input
          type="checkbox"
          name="repeat"
          checked={repeat}
          onChange={(event) => setRepeat(event.target.checked)}
        />{' '}
        {t('priceAlerts.repeat')}
      </label>
      <FormError message={error} />
      <DialogButtons
        dialog={dialog}
        cancel={t('priceAlerts.close')}
        confirm={t('priceAlerts.save')}
        disabled={create.isPending}
      />
    </form>
  );
}

/**
 * The instrument page's bell: opens the "set price alert" dialog for the instrument. It waits for
 * its texts in a boundary of its own, so loading them never suspends the page around it.
 */
export function AlertBell({ item }: { item: MarketItem }) {
  return (
    <Suspense fallback={null}>
      <Bell item={item} />
    </Suspense>
  );
}

function Bell({ item }: { item: MarketItem }) {
  use(alertTexts);
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(0);
  const [shown, setShown] = useState(false);
  // Opened from state, so a render that comes while the page is still loading keeps it open.
  useEffect(() => {
    const element = dialog.current;
    if (shown && element && !element.open) element.showModal();
  });
  return (
    <>
      <button
        type="button"
        className="icon-button price-alert-bell"
        aria-haspopup="dialog"
        aria-label={t('priceAlerts.bell', { name: item.appName })}
        data-testid="price-alert-bell"
        onClick={() => {
          setOpen((n) => n + 1);
          setShown(true);
        }}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
          <path
            fill="currentColor"
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
          />
        </svg>
      </button>
      <Modal
        dialogRef={dialog}
        className="modal"
        aria-labelledby={titleId}
        data-testid="price-alert-dialog"
        onClose={() => setShown(false)}
      >
        <h2 id={titleId} className="price-alert-title">
          {t('priceAlerts.setTitle')} · {item.code}
        </h2>
        {open > 0 ? <AlertForm key={open} item={item} dialog={dialog} /> : null}
      </Modal>
    </>
  );
}
