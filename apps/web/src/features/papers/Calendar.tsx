import type { CalendarLinkData } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { papersQueries } from './queries.ts';

/** A link just made: its address (shown this once), copied or opened in a calendar app. */
function FreshLink({ url }: { url: string }) {
  const { t } = useTranslation();
  return (
    <div className="papers-link">
      <label htmlFor="papers-feed">{t('papers.linkLabel')}</label>
      <input
        id="papers-feed"
        className="control"
        readOnly
        dir="ltr"
        value={url}
        onFocus={(e) => e.target.select()}
      />
      <p className="muted small">{t('papers.showOnce')}</p>
      <div className="row">
        <CopyButton
          text={url}
          label={t('papers.copy')}
          said={{ copied: t('papers.copied'), failed: t('papers.copyFailed') }}
        />
        <a className="button ghost small" href={url.replace(/^https?:/, 'webcal:')}>
          {t('papers.subscribe')}
        </a>
      </div>
    </div>
  );
}

/**
 * The obligations calendar: a private link to subscribe to (made here, its address shown this
 * once, as only its hash is kept), copied or opened in a calendar app; made again (the old one
 * stops working) or revoked.
 */
export function CalendarSection({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const client = useQueryClient();
  const query = useQuery(papersQueries.calendar(userId));
  const [fresh, setFresh] = useState<string | null>(null);
  const done = (data: CalendarLinkData) => {
    setFresh(data.path ? new URL(data.path, window.location.origin).href : null);
    client.setQueryData(papersQueries.calendar(userId).queryKey, {
      active: data.active,
      createdAt: data.createdAt,
    });
  };
  const rotate = useMutation({
    mutationFn: () => callApi('rotateCalendarLink', { body: {} }),
    onSuccess: done,
  });
  const revoke = useMutation({
    mutationFn: () => callApi('revokeCalendarLink', { body: {} }),
    onSuccess: done,
  });
  const busy = rotate.isPending || revoke.isPending;
  const failure = rotate.error ?? revoke.error;
  return (
    <section
      className="card papers-calendar"
      aria-labelledby="papers-calendar"
      data-testid="calendar-section"
    >
      <h2 id="papers-calendar">{t('papers.calendar')}</h2>
      <p className="muted small">{t('papers.calendarIntro')}</p>
      {query.isPending ? <Loading /> : null}
      {query.isError ? <Failed message={query.error.message} onRetry={() => void query.refetch()} /> : null}
      {query.isSuccess ? (
        <>
          {fresh ? (
            <FreshLink url={fresh} />
          ) : (
            <p>
              {query.data.active && query.data.createdAt
                ? t('papers.calendarActive', { date: formatDate(language, query.data.createdAt) })
                : revoke.isSuccess
                  ? t('papers.revoked')
                  : t('papers.calendarNone')}
            </p>
          )}
          <div className="row">
            <button type="button" className="button primary" disabled={busy} onClick={() => rotate.mutate()}>
              {query.data.active ? t('papers.rotate') : t('papers.create')}
            </button>
            {query.data.active ? (
              <button type="button" className="button ghost" disabled={busy} onClick={() => revoke.mutate()}>
                {t('papers.revoke')}
              </button>
            ) : null}
          </div>
          {failure ? <p role="alert">{failure.message}</p> : null}
        </>
      ) : null}
    </section>
  );
}
