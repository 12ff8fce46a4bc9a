import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { Markup } from '../help/Markup.tsx';
import { contentQueries } from './queries.ts';
import './content.css';

/**
 * A company or policy page: the markup staff wrote, the operator's settings filled in by the server,
 * rendered by the help centre's safe markup (elements from a parsed tree, never HTML).
 */
export function ContentArticle({ id, fallbackTitle }: { id: number; fallbackTitle?: string }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const query = useQuery({ ...contentQueries.detail(language, id), enabled: Number.isInteger(id) && id > 0 });
  if (!Number.isInteger(id) || id <= 0 || (query.error instanceof ApiFailure && query.error.code === 10028)) {
    return (
      <div className="container page">
        <h1 className="page-title">{fallbackTitle || t('title.detail')}</h1>
        <p>{t('detail.missing')}</p>
        <Link to="/">{t('action.goHome')}</Link>
      </div>
    );
  }
  return (
    <article className="container page narrow">
      <h1 className="page-title">{query.data?.title ?? fallbackTitle ?? t('title.detail')}</h1>
      {query.isPending ? <Loading /> : null}
      {query.isError ? <Failed message={query.error.message} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <>
          <Markup text={query.data.body} />
          <p className="muted">
            <time dateTime={query.data.updatedAt}>{formatDate(language, query.data.updatedAt)}</time>
          </p>
        </>
      ) : null}
    </article>
  );
}

export default function Detail() {
  const [search] = useSearchParams();
  return <ContentArticle id={Number(search.get('id'))} fallbackTitle={search.get('title') ?? undefined} />;
}
