import { HELP_CATEGORIES } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { ArticleList, HelpPage, useHelpTranslation } from './parts.tsx';
import { helpQueries } from './queries.ts';

/** The FAQ by topic (/help/faq, ?topic=n shows one): a heading per topic, its questions listed. */
export default function Faq() {
  const { t } = useHelpTranslation();
  const language = useClientState((s) => s.language);
  const [search] = useSearchParams();
  const chosen = Number(search.get('topic') ?? 0);
  const faq = useQuery(helpQueries.list(language, 5, 0));
  const topics = HELP_CATEGORIES[5]
    .map((key, index) => ({ key, category: index + 1 }))
    .filter(({ category }) => !(chosen > 0) || category === chosen);
  return (
    <HelpPage title={t('title.faq')}>
      {faq.isPending ? <Loading /> : null}
      {faq.isError ? <Failed message={faq.error.message} onRetry={() => void faq.refetch()} /> : null}
      {faq.data
        ? topics.map(({ key, category }) => {
            const items = faq.data.filter((item) => item.category === category);
            return (
              <section key={key} className="help-section" aria-labelledby={`faq-${key}`}>
                <h2 id={`faq-${key}`}>{t(`help.category.${key}`)}</h2>
                {items.length === 0 ? <Empty text={t('help.emptyFaq')} /> : <ArticleList items={items} />}
              </section>
            );
          })
        : null}
    </HelpPage>
  );
}
