import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { Markup } from './Markup.tsx';
import { foreign, HelpPage, useCategoryName, useHelpTranslation } from './parts.tsx';
import { helpQueries } from './queries.ts';

/** One FAQ article or notice (/help/article/:id): its text, its topic, when it last changed. */
export default function Article() {
  const { t } = useHelpTranslation();
  const language = useClientState((s) => s.language);
  const categoryName = useCategoryName();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const article = useQuery({ ...helpQueries.article(language, id), enabled: valid });
  const missing = !valid || (article.error instanceof ApiFailure && article.error.code === 10028);
  const data = article.data;
  const help = data && (data.type === 5 || data.type === 6);
  if (missing || (data && !help))
    return (
      <HelpPage title={t('title.helpArticle')}>
        <p>{t('help.missing')}</p>
        <Link to="/help">{t('help.back')}</Link>
      </HelpPage>
    );
  const shownIn = data && data.language !== language ? data.language : undefined;
  return (
    <HelpPage title={data?.title ?? t('title.helpArticle')} titleIn={shownIn}>
      {article.isPending ? <Loading /> : null}
      {article.isError ? (
        <Failed message={article.error.message} onRetry={() => void article.refetch()} />
      ) : null}
      {data ? (
        <>
          {shownIn ? <p className="help-fallback-note">{t('help.inEnglishArticle')}</p> : null}
          <article className="card help-article">
            <p className="muted small">
              {data.type === 5 ? t('help.faqKind') : t('help.noticeKind')}
              {data.category ? ` · ${categoryName(data.type, data.category)}` : ''}
            </p>
            <div {...foreign(shownIn, language)}>
              <Markup text={data.body} />
            </div>
            <p className="muted small">
              <time dateTime={data.updatedAt}>
                {t('help.updated', { date: formatDate(language, data.updatedAt) })}
              </time>
            </p>
          </article>
        </>
      ) : null}
      <Link to="/help">{t('help.back')}</Link>
    </HelpPage>
  );
}
