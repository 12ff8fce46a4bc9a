import type { SmartProduct } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { Closed, DemoDisabled, ProductFacts, Realised, SmartPage } from './parts.tsx';
import { smartQueries } from './queries.ts';

/** One product as a card: name, strategy, instruments, timeframes, amounts, fee, the realised yield of its plans. */
function ProductCard({ product }: { product: SmartProduct }) {
  const { t } = useTranslation();
  const headingId = `smart-product-${product.id}`;
  const open = product.enabled && !product.soldOut;
  return (
    <li className="card product-card smart-card" data-product={product.id} aria-labelledby={headingId}>
      <div className="product-card-head">
        <h2 id={headingId}>
          <Link to={`/trading/${product.id}`}>{product.name}</Link>
        </h2>
        <span className="smart-chip product-chip">{t(`${product.strategy.docKey}.name`)}</span>
      </div>
      <Realised realised={product.realised} />
      <ProductFacts product={product} />
      <Closed product={product} />
      <Link className="button primary block" to={`/trading/${product.id}`} aria-describedby={headingId}>
        {open ? t('smart.card.create') : t('smart.card.view')}
      </Link>
    </li>
  );
}

/** Smart trading (/trading): the products with the realised yields of their plans; in the demo book, the switch. */
export default function Products() {
  const { t } = useTranslation();
  const demo = useClientState((s) => s.isLogin && s.virtual === 1);
  const query = useQuery(smartQueries.products());
  return (
    <SmartPage title={t('title.trading')}>
      <p className="muted product-intro">{t('smart.list.intro')}</p>
      {demo ? <DemoDisabled /> : null}
      {!query.isSuccess ? (
        <QueryState query={query} />
      ) : query.data.length === 0 || query.data.every((p) => !p.enabled) ? (
        <section className="card product-note smart-missing" data-testid="smart-not-enabled">
          <h2>{t('smart.list.notEnabledTitle')}</h2>
          <p>{t('smart.list.notEnabled')}</p>
        </section>
      ) : (
        <ul className="product-grid" data-testid="smart-products">
          {query.data.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </ul>
      )}
    </SmartPage>
  );
}
