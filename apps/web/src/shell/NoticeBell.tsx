import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../app/state.ts';
import { noticeQueries } from '../features/notices/queries.ts';
import { Icon } from './icons.tsx';

/**
 * The phone bar's bell: a link to the notification list that says how many notices wait unread
 * (routine ones open no dialog, so this is where they show). The count is the same polled query as
 * the notice dialog's (one request); its name says it for screen readers, the badge shows it.
 */
export function NoticeBell() {
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  const language = useClientState((s) => s.language);
  const unread = useQuery({ ...noticeQueries.unread(user?.id ?? 0, language), enabled: user !== null });
  const count = unread.data?.length ?? 0;
  return (
    <Link
      className="icon-button notice-bell"
      to="/profile/notification"
      aria-label={count > 0 ? t('a11y.notificationsUnread', { count }) : t('a11y.notifications')}
    >
      <Icon name="bell" />
      {count > 0 ? (
        <span className="notice-bell-count" aria-hidden="true" data-testid="notice-bell-count">
          {count > 9 ? '9+' : count}
        </span>
      ) : null}
    </Link>
  );
}
