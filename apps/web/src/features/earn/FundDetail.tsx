import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { idOf } from '../../app/pathId.ts';
import { ProductScreen } from './Detail.tsx';
import { EarnPage } from './parts.tsx';

/** A crypto fund (/financial/cryptoInvestDetail?id=N): the product and its purchase. */
export default function FundDetail() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = idOf(search.get('id'));
  return (
    <EarnPage title={t('title.cryptoInvestDetail')}>
      <ProductScreen key={id ?? 0} id={id} type="fund" />
    </EarnPage>
  );
}
