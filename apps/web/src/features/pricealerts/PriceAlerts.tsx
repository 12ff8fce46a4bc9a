import { LANGUAGE_TAGS, type PriceAlertView } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { use, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { announce } from '../../ui/announce.ts';
import { FormError } from '../../ui/Field.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { price } from '../market/live.ts';
import { currentSubscription, disablePush, enablePush, PushUnavailable, pushSupported } from './push.ts';
import { alertQueries } from './queries.ts';
import { alertTexts } from './texts.ts';
import './pricealerts.css';

/** What an alert waits for, in words. */
function useCondition() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return (alert: PriceAlertView) => {
    if (alert.kind === 'move_pct') return t('priceAlerts.condMove', { percent: alert.percent });
    const level = price(alert.level ?? '', LANGUAGE_TAGS[language]);
    return alert.kind === 'above'
      ? t('priceAlerts.condAbove', { level })
      : t('priceAlerts.condBelow', { level });
  };
}

function AlertCard({
  alert,
  onCancel,
  busy,
}: {
  alert: PriceAlertView;
  onCancel: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const condition = useCondition();
  const headId = useId();
  return (
    <li
      className="card price-alert-card"
      data-alert={alert.id}
      data-state={alert.state}
      aria-labelledby={headId}
    >
      <p className="row price-alert-head" id={headId}>
        <strong>{alert.code}</strong> <span>{condition(alert)}</span>
      </p>
      <p className="row muted small">
        <span className="badge">{t(`priceAlerts.${alert.state}`)}</span>
        <span>{alert.repeat ? t('priceAlerts.repeats') : t('priceAlerts.once')}</span>
        {alert.fired > 1 ? <span>{t('priceAlerts.firedTimes', { n: alert.fired })}</span> : null}
      </p>
      {alert.firedAt && alert.firedPrice ? (
        <p className="muted small">
          {t('priceAlerts.lastFired', {
            time: formatDate(language, alert.firedAt, { dateStyle: 'medium', timeStyle: 'short' }),
            price: price(alert.firedPrice, LANGUAGE_TAGS[language]),
          })}
        </p>
      ) : null}
      {alert.state === 'active' ? (
        <button
          type="button"
          className="button ghost small"
          onClick={onCancel}
          aria-disabled={busy || undefined}
        >
          {t('priceAlerts.cancelAlert')}
          <span className="visually-hidden"> {`${alert.code} ${condition(alert)}`}</span>
        </button>
      ) : null}
    </li>
  );
}

function AlertList({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery(alertQueries.list(userId));
  const cancel = useMutation({
    mutationFn: (alert: PriceAlertView) => callApi('cancelPriceAlert', { body: { id: alert.id } }),
    onSuccess: (_, alert) => announce(t('priceAlerts.cancelDone', { code: alert.code })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertQueries.all }),
  });
  if (list.isPending) return <Loading />;
  if (list.isError) return <Failed message={list.error.message} onRetry={() => void list.refetch()} />;
  return (
    <>
      <p className="muted" data-testid="price-alert-count">
        {t('priceAlerts.count', { active: list.data.active, limit: list.data.limit })}
      </p>
      <FormError message={cancel.error instanceof ApiFailure ? cancel.error.message : ''} />
      {list.data.items.length === 0 ? (
        <>
          <Empty text={t('priceAlerts.empty')} />
          <p className="muted">{t('priceAlerts.setFromInstrument')}</p>
        </>
      ) : (
        <ul className="price-alert-list">
          {list.data.items.map((alert) => (
            <AlertCard
              key={alert.id}
              alert={alert}
              busy={cancel.isPending}
              onCancel={() => {
                if (!cancel.isPending) cancel.mutate(alert);
              }}
            />
          ))}
        </ul>
      )}
    </>
  );
}

type PushState = 'loading' | 'unsupported' | 'off-service' | 'on' | 'off' | 'denied';

/** Why the switch did not turn: the server's refusal, or the browser gave no subscription. */
function failureText(error: Error, t: TFunction): string {
  if (error instanceof ApiFailure) return error.message;
  return error instanceof PushUnavailable ? t('priceAlerts.pushFailed') : t('state.error');
}

/** The switch for push notifications on this device (asks the browser's permission when turned on). */
function PushSwitch() {
  const { t } = useTranslation();
  const key = useQuery(alertQueries.pushKey());
  const [state, setState] = useState<PushState>('loading');
  const [failed, setFailed] = useState('');
  const publicKey = key.data?.publicKey ?? null;
  useEffect(() => {
    if (!pushSupported()) return setState('unsupported');
    if (key.isPending) return;
    if (!publicKey) return setState('off-service');
    if (Notification.permission === 'denied') return setState('denied');
    let live = true;
    void currentSubscription().then((s) => {
      if (live) setState(s ? 'on' : 'off');
    });
    return () => {
      live = false;
    };
  }, [key.isPending, publicKey]);
  const toggle = useMutation({
    mutationFn: async (on: boolean) =>
      on && publicKey ? enablePush(publicKey) : disablePush().then(() => 'off' as const),
    onSuccess: (next) => {
      setFailed('');
      setState(next);
      announce(
        next === 'on'
          ? t('priceAlerts.pushOn')
          : next === 'denied'
            ? t('priceAlerts.pushDenied')
            : t('priceAlerts.pushStopped'),
      );
    },
    onError: (error) => setFailed(failureText(error, t)),
  });
  const note =
    state === 'unsupported'
      ? t('priceAlerts.pushUnsupported')
      : state === 'off-service'
        ? t('priceAlerts.pushOff')
        : state === 'denied'
          ? t('priceAlerts.pushDenied')
          : t('priceAlerts.pushHint');
  const usable = state === 'on' || state === 'off';
  const noteId = useId();
  return (
    <section className="card price-alert-push">
      <label className="row price-alert-switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={state === 'on'}
          checked={state === 'on'}
          disabled={!usable || toggle.isPending}
          aria-describedby={noteId}
          onChange={(event) => toggle.mutate(event.target.checked)}
          data-testid="price-alert-push"
        />{' '}
        {t('priceAlerts.push')}
      </label>
      <p id={noteId} className="muted small">
        {note}
      </p>
      <FormError message={failed} />
    </section>
  );
}

export default function PriceAlerts() {
  use(alertTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={t('title.priceAlerts')}>
      {user ? (
        <>
          <PushSwitch />
          <AlertList userId={user.id} />
        </>
      ) : null}
    </AccountPage>
  );
}
