import { useQuery } from '@tanstack/react-query';
import { useClientState } from '../../app/state.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { ContentArticle } from './Detail.tsx';
import { contentQueries } from './queries.ts';

/** About us: the company content item with the slug `about`. */
export default function Introduction() {
  const language = useClientState((s) => s.language);
  const company = useQuery(contentQueries.byType(language, 1));
  if (company.isPending) return <Loading />;
  if (company.isError)
    return <Failed message={company.error.message} onRetry={() => void company.refetch()} />;
  const about = company.data.find((item) => item.slug === 'about');
  return <ContentArticle id={about?.id ?? 0} />;
}
