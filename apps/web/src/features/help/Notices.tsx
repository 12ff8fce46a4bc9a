import { useQuery } from '@tanstack/react-query';
import { useClientState } from '../../app/state.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { ArticleList, HelpPage, useHelpTranslation } from './parts.tsx';
import { helpQueries } from './queries.ts';

/** The operator's notices (/help/notice), newest first, each with its date. */
export default function Notices() {
  const { t } = useHelpTranslation();
  const language = useClientState((s) => s.language);
  const notices = useQuery(helpQueries.list(language, 6, 0));
  const sorted = notices.data
    ? [...notices.data].sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''))
    : [];
  return (
    <HelpPage title={t('title.helpNotice')}>
      {notices.isPending ? <Loading /> : null}
      {notices.isError ? (
        <Failed message={notices.error.message} onRetry={() => void notices.refetch()} />
      ) : null}
      {notices.data && sorted.length === 0 ? <Empty text={t('help.emptyNotices')} /> : null}
      {sorted.length > 0 ? <ArticleList items={sorted} dated /> : null}
    </HelpPage>
  );
}
