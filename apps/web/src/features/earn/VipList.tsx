import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { ProductGrid } from './Products.tsx';
import { EarnPage } from './parts.tsx';
import { earnQueries } from './queries.ts';

/** VIP funds (/financial/vipInvest): who may invest, then the products as cards. */
export default function VipList() {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const query = useQuery(earnQueries.vip(book));
  return (
    <EarnPage title={t('title.vipInvest')}>
      <section className="card product-note earn-vip-rule" aria-labelledby="vip-rule-title">
        <h2 id="vip-rule-title">{t('earn.vip.ruleTitle')}</h2>
        <p>{t('earn.vip.rule')}</p>
      </section>
      <ProductGrid query={query} empty={t('earn.vip.none')} />
    </EarnPage>
  );
}
