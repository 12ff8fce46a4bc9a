import type { Asset, EarnIncome, EarnType } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { Book } from '../ledger/ledger.service.ts';

/** SQL of the earn products: the products staff set up, each book's capacity taken, published rates, reserve alerts. */

export type ProductRow = {
  id: number;
  type: EarnType;
  name: string;
  asset: Asset;
  income: EarnIncome;
  termDays: number | null;
  annualRatePpm: bigint | null;
  basket: string[];
  minMinor: bigint;
  maxMinor: bigint;
  capacityMinor: bigint;
  penaltyPpm: bigint;
  requiresKyc: boolean;
  onePerCustomer: boolean;
  enabled: boolean;
  createdAt: string;
};

type RawProduct = {
  id: string;
  type: EarnType;
  name: string;
  asset: Asset;
  income: EarnIncome;
  term_days: number | null;
  annual_rate_ppm: string | null;
  basket: string[];
  min_minor: string;
  max_minor: string;
  capacity_minor: string;
  penalty_ppm: string;
  requires_kyc: boolean;
  one_per_customer: boolean;
  enabled: boolean;
  created_at: string;
};

const PRODUCT_COLUMNS = `id, type, name, asset, income, term_days, annual_rate_ppm, basket, min_minor, max_minor,
  capacity_minor, penalty_ppm, requires_kyc, one_per_customer, enabled, created_at::text AS created_at`;

const toProduct = (r: RawProduct): ProductRow => ({
  id: Number(r.id),
  type: r.type,
  name: r.name,
  asset: r.asset,
  income: r.income,
  termDays: r.term_days,
  annualRatePpm: r.annual_rate_ppm === null ? null : BigInt(r.annual_rate_ppm),
  basket: r.basket,
  minMinor: BigInt(r.min_minor),
  maxMinor: BigInt(r.max_minor),
  capacityMinor: BigInt(r.capacity_minor),
  penaltyPpm: BigInt(r.penalty_ppm),
  requiresKyc: r.requires_kyc,
  onePerCustomer: r.one_per_customer,
  enabled: r.enabled,
  createdAt: r.created_at,
});

export type ProductFields = Omit<ProductRow, 'id' | 'createdAt'>;

const productValues = (p: ProductFields) => [
  p.type,
  p.name,
  p.asset,
  p.income,
  p.termDays,
  p.annualRatePpm?.toString() ?? null,
  p.basket,
  p.minMinor.toString(),
  p.maxMinor.toString(),
  p.capacityMinor.toString(),
  p.penaltyPpm.toString(),
  p.requiresKyc,
  p.onePerCustomer,
  p.enabled,
];

/** A new product, made at `at` (the service clock, ISO). */
export async function insertProduct(db: Queryable, p: ProductFields, at: string): Promise<ProductRow> {
  const rows = await db.query<RawProduct>(
    `INSERT INTO earn_products (type, name, asset, income, term_days, annual_rate_ppm, basket, min_minor,
       max_minor, capacity_minor, penalty_ppm, requires_kyc, one_per_customer, enabled, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) RETURNING ${PRODUCT_COLUMNS}`,
    [...productValues(p), at],
  );
  const row = rows[0];
  if (!row) throw new Error('no product inserted');
  await db.query(
    `INSERT INTO earn_capacity (product_id, book) VALUES ($1, 'demo'), ($1, 'live') ON CONFLICT DO NOTHING`,
    [row.id],
  );
  return toProduct(row);
}

export async function updateProduct(
  db: Queryable,
  id: number,
  p: ProductFields,
  at: string,
): Promise<ProductRow | null> {
  const rows = await db.query<RawProduct>(
    `UPDATE earn_products SET type = $1, name = $2, asset = $3, income = $4, term_days = $5, annual_rate_ppm = $6,
       basket = $7, min_minor = $8, max_minor = $9, capacity_minor = $10, penalty_ppm = $11, requires_kyc = $12,
       one_per_customer = $13, enabled = $14, updated_at = $16
     WHERE id = $15 RETURNING ${PRODUCT_COLUMNS}`,
    [...productValues(p), id, at],
  );
  return rows[0] ? toProduct(rows[0]) : null;
}

export async function productById(db: Queryable, id: number): Promise<ProductRow | null> {
  const rows = await db.query<RawProduct>(`SELECT ${PRODUCT_COLUMNS} FROM earn_products WHERE id = $1`, [id]);
  return rows[0] ? toProduct(rows[0]) : null;
}

export async function listProducts(db: Queryable): Promise<ProductRow[]> {
  const rows = await db.query<RawProduct>(`SELECT ${PRODUCT_COLUMNS} FROM earn_products ORDER BY id`);
  return rows.map(toProduct);
}

/** What each book of each product has taken. */
export async function capacityUsed(db: Queryable): Promise<Map<string, bigint>> {
  const rows = await db.query<{ product_id: string; book: Book; used_minor: string }>(
    'SELECT product_id, book, used_minor FROM earn_capacity',
  );
  return new Map(rows.map((r) => [`${r.product_id}:${r.book}`, BigInt(r.used_minor)]));
}

/** Takes `amount` of a product's capacity in a book, only while it stays within the capacity. */
export async function takeCapacity(
  tx: Queryable,
  productId: number,
  book: Book,
  amount: bigint,
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE earn_capacity c SET used_minor = c.used_minor + $3
     FROM earn_products p
     WHERE c.product_id = $1 AND c.book = $2 AND p.id = c.product_id AND c.used_minor + $3 <= p.capacity_minor
     RETURNING c.product_id`,
    [productId, book, amount.toString()],
  );
  return rows.length > 0;
}

export async function releaseCapacity(
  tx: Queryable,
  productId: number,
  book: Book,
  amount: bigint,
): Promise<void> {
  await tx.query(
    'UPDATE earn_capacity SET used_minor = used_minor - $3 WHERE product_id = $1 AND book = $2',
    [productId, book, amount.toString()],
  );
}

export async function insertRate(
  db: Queryable,
  productId: number,
  day: string,
  ratePpm: bigint,
  unitPriceE8: bigint,
): Promise<void> {
  await db.query(
    `INSERT INTO earn_rates (product_id, day, rate_ppm, unit_price_e8) VALUES ($1, $2, $3, $4)
     ON CONFLICT (product_id, day) DO NOTHING`,
    [productId, day, ratePpm.toString(), unitPriceE8.toString()],
  );
}

export async function ratesOf(
  db: Queryable,
  productId: number,
  limit: number,
): Promise<{ day: string; ratePpm: bigint; unitPriceE8: bigint }[]> {
  const rows = await db.query<{ day: string; rate_ppm: string; unit_price_e8: string }>(
    `SELECT day::text AS day, rate_ppm, unit_price_e8 FROM (
       SELECT * FROM earn_rates WHERE product_id = $1 ORDER BY day DESC LIMIT $2) r ORDER BY day`,
    [productId, limit],
  );
  return rows.map((r) => ({ day: r.day, ratePpm: BigInt(r.rate_ppm), unitPriceE8: BigInt(r.unit_price_e8) }));
}

export async function rateOf(db: Queryable, productId: number, day: string): Promise<bigint | null> {
  const rows = await db.query<{ rate_ppm: string }>(
    'SELECT rate_ppm FROM earn_rates WHERE product_id = $1 AND day = $2::date',
    [productId, day],
  );
  return rows[0] ? BigInt(rows[0].rate_ppm) : null;
}

/** The first reserve refusal of a product in a book on a day: true once (staff are alerted once). */
export async function firstReserveRefusal(
  db: Queryable,
  productId: number,
  book: Book,
  day: string,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO earn_reserve_alerts (product_id, book, day) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING day`,
    [productId, book, day],
  );
  return rows.length > 0;
}
