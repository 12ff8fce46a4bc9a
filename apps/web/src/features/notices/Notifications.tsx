import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { noticeQueries } from './queries.ts';
import './notices.css';

function NoticeList({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const queryClient = useQueryClient();
  // The server writes each notice in the request's language: the language in the key refetches
  // them all in the new language when it changes.
  const list = useQuery(noticeQueries.list(userId, language));
  const read = useMutation({
    mutationFn: (noticeId: number) => callApi('readNotice', { query: { noticeId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noticeQueries.all }),
  });
  if (list.isPending) return <Loading />;
  if (list.isError) return <Failed message={list.error.message} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0) return <Empty text={t('notice.empty')} />;
  return (
    <ul className="notice-list">
      {list.data.map((n) => (
        <li key={n.id} className={`card ${n.readState === 0 ? 'unread' : ''}`} data-notice={n.id}>
          <p className="row">
            <span className="badge">{n.readState === 0 ? t('notice.unread') : t('notice.read')}</span>
            <time className="muted small" dateTime={n.createdAt}>
              {formatDate(language, n.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
            </time>
          </p>
          <p>{n.noticeContent}</p>
          {n.readState === 0 ? (
            <button type="button" className="button ghost small" onClick={() => read.mutate(n.id)}>
              {t('notice.markRead')}
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export default function Notifications() {
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={t('title.notification')}>{user ? <NoticeList userId={user.id} /> : null}</AccountPage>
  );
}
