import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { noticeQueries } from './queries.ts';
import './notices.css';

/**
 * While logged in, unread notices are fetched every 10 s; the first the customer must read shows
 * in a blocking dialog titled "Notification" with only a close button. Closing marks it read; the
 * next poll may show the next one. One dialog at a time (spec §4). A routine notice (an income day,
 * a deposit step, a trade closed: `mustRead` false, its kind's weight from the server) opens no
 * dialog: it waits, unread, in the notification list.
 */
export function NoticeDialog() {
  const { t } = useTranslation();
  const isLogin = useClientState((s) => s.isLogin);
  const user = useClientState((s) => s.userInfo);
  const language = useClientState((s) => s.language);
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const unread = useQuery({
    ...noticeQueries.unread(user?.id ?? 0, language),
    enabled: isLogin && user !== null,
    // A language change refetches in the new language; the open dialog stays open meanwhile.
    placeholderData: (previous) => previous,
  });
  const first = isLogin ? unread.data?.find((notice) => notice.mustRead) : undefined;
  const read = useMutation({
    mutationFn: (noticeId: number) => callApi('readNotice', { query: { noticeId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noticeQueries.all }),
  });
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (first && !element.open) element.showModal();
    if (!first && element.open) element.close();
  }, [first]);
  if (!first) return <dialog ref={dialog} className="modal notice-dialog" aria-labelledby={titleId} />;
  const close = () => {
    dialog.current?.close();
    read.mutate(first.id);
  };
  return (
    <dialog
      ref={dialog}
      className="modal notice-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <div className="modal-body">
        <h2 id={titleId}>{t('notice.title')}</h2>
        <p data-notice={first.id}>{first.noticeContent}</p>
        <div className="row end">
          <button type="button" className="button primary" onClick={close}>
            {t('action.close')}
          </button>
        </div>
      </div>
    </dialog>
  );
}
