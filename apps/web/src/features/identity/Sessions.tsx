import { Code, type SessionItem } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { messageOf } from './fields.tsx';
import { identityQueries } from './queries.ts';
import './identity.css';

function deviceName(session: SessionItem, unknown: string): string {
  return [session.browser, session.os].filter(Boolean).join(' · ') || unknown;
}

/** Signs a device out; what happened is said in `setMessage`, and the list is read again either way. */
function useRevokeSession(userId: number, setMessage: (message: string) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi('revokeSession', { body: { id } }),
    onSuccess: () => setMessage(t('security.sessions.revoked')),
    onError: (failed) =>
      // Already gone (10028) is what the user wanted; anything else is said.
      setMessage(
        failed instanceof ApiFailure && failed.code === Code.NOT_FOUND
          ? ''
          : messageOf(failed, t('state.error')),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: identityQueries.sessions(userId).queryKey }),
  });
}

/** One signed-in device: its browser and system, when it was last seen and signed in, where from. */
function SessionRow({
  session,
  revoke,
}: {
  session: SessionItem;
  revoke: ReturnType<typeof useRevokeSession>;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const when = (iso: string) => formatDate(language, iso, { dateStyle: 'medium', timeStyle: 'short' });
  const name = deviceName(session, t('security.sessions.unknown'));
  return (
    <li className="session" data-session={session.id} data-current={session.current}>
      <div className="session-main">
        <p className="session-device">
          {name} {session.current ? <span className="badge on">{t('security.sessions.current')}</span> : null}
        </p>
        <p className="muted small">
          {t('security.sessions.lastSeen', { time: when(session.lastSeenAt) })}
          <span aria-hidden="true"> · </span>
          {t('security.sessions.signedIn', { time: when(session.createdAt) })}
          <span aria-hidden="true"> · </span>
          {t('security.sessions.address', { ip: session.ip || '—' })}
        </p>
      </div>
      {session.current ? null : (
        <button
          type="button"
          className="button ghost small"
          aria-label={t('security.sessions.revokeLabel', { device: name })}
          disabled={revoke.isPending && revoke.variables === session.id}
          onClick={() => revoke.mutate(session.id)}
        >
          {t('security.sessions.revoke')}
        </button>
      )}
    </li>
  );
}

/** The devices signed in to the account, each (but this one) with its sign-out. */
export function Sessions({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [message, setMessage] = useState('');
  const list = useQuery(identityQueries.sessions(userId));
  const revoke = useRevokeSession(userId, setMessage);

  let body: React.ReactNode;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <Failed message={list.error.message} onRetry={() => void list.refetch()} />;
  else if (list.data.length === 0) body = <Empty text={t('security.sessions.empty')} />;
  else
    body = (
      <ul className="session-list">
        {list.data.map((session) => (
          <SessionRow key={session.id} session={session} revoke={revoke} />
        ))}
      </ul>
    );
  return (
    <section className="card security-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('security.sessions.title')}</h2>
      <p className="muted">{t('security.sessions.intro')}</p>
      <p className="book-message" role="status" aria-live="polite">
        {message}
      </p>
      {body}
    </section>
  );
}
