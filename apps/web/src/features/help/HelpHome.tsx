import { HELP_CATEGORIES } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { ArticleList, HelpPage, useHelpTranslation } from './parts.tsx';
import { helpQueries } from './queries.ts';
import { HelpSearch } from './Search.tsx';

/** The latest notices, three of them. */
function LatestNotices() {
  const { t } = useHelpTranslation();
  const language = useClientState((s) => s.language);
  const notices = useQuery(helpQueries.list(language, 6, 0));
  if (notices.isPending) return <Loading />;
  if (notices.isError)
    return <Failed message={notices.error.message} onRetry={() => void notices.refetch()} />;
  const latest = [...notices.data]
    .sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''))
    .slice(0, 3);
  if (latest.length === 0) return <Empty text={t('help.emptyNotices')} />;
  return <ArticleList items={latest} dated />;
}

/** The help centre's home (/help): search, the FAQ's topics, the latest notices. */
export default function HelpHome() {
  const { t } = useHelpTranslation();
  return (
    <HelpPage title={t('title.help')}>
      <HelpSearch />
      <section className="help-section" aria-labelledby="help-topics">
        <h2 id="help-topics">{t('help.topics')}</h2>
        <ul className="help-topics">
          {HELP_CATEGORIES[5].map((key, index) => (
            <li key={key}>
              <Link className="card help-topic" to={`/help/faq?topic=${index + 1}`}>
                {t(`help.category.${key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="help-section" aria-labelledby="help-latest">
        <h2 id="help-latest">{t('help.latestNotices')}</h2>
        <LatestNotices />
        <Link to="/help/notice">{t('help.allNotices')}</Link>
      </section>
    </HelpPage>
  );
}
