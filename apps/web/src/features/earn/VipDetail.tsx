import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { idOf } from '../../app/pathId.ts';
import { ProductScreen } from './Detail.tsx';
import { EarnPage } from './parts.tsx';

/** A VIP fund (/financial/vipInvestDetail/:info, info being the product id). */
export default function VipDetail() {
  const { t } = useTranslation();
  const { info } = useParams();
  const id = idOf(info);
  return (
    <EarnPage title={t('title.vipInvestDetail')}>
      <ProductScreen key={id ?? 0} id={id} type="vip" />
    </EarnPage>
  );
}
