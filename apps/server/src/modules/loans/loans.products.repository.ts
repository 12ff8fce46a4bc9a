import type { Asset } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/** SQL of the loan products (terms, rates, late rule) staff set up and a loan copies when signed. */

export type LoanProductRow = {
  id: number;
  name: string;
  asset: Asset;
  minMinor: bigint;
  maxMinor: bigint;
  terms: number[];
  dailyPpm: bigint;
  interestFreeDays: number;
  lateDailyPpm: bigint;
  lateCapPpm: bigint;
  enabled: boolean;
};
export type LoanProductFields = Omit<LoanProductRow, 'id'>;

type RawProduct = {
  id: string;
  name: string;
  asset: Asset;
  min_minor: string;
  max_minor: string;
  terms: number[];
  daily_ppm: string;
  interest_free_days: number;
  late_daily_ppm: string;
  late_cap_ppm: string;
  enabled: boolean;
};

const PRODUCT_COLUMNS =
  'id, name, asset, min_minor, max_minor, terms, daily_ppm, interest_free_days, late_daily_ppm, late_cap_ppm, enabled';

const toProduct = (r: RawProduct): LoanProductRow => ({
  id: Number(r.id),
  name: r.name,
  asset: r.asset,
  minMinor: BigInt(r.min_minor),
  maxMinor: BigInt(r.max_minor),
  terms: r.terms.map(Number),
  dailyPpm: BigInt(r.daily_ppm),
  interestFreeDays: r.interest_free_days,
  lateDailyPpm: BigInt(r.late_daily_ppm),
  lateCapPpm: BigInt(r.late_cap_ppm),
  enabled: r.enabled,
});

const productValues = (p: LoanProductFields) => [
  p.name,
  p.asset,
  p.minMinor.toString(),
  p.maxMinor.toString(),
  p.terms,
  p.dailyPpm.toString(),
  p.interestFreeDays,
  p.lateDailyPpm.toString(),
  p.lateCapPpm.toString(),
  p.enabled,
];

export async function insertProduct(
  db: Queryable,
  p: LoanProductFields,
  at: string,
): Promise<LoanProductRow> {
  const rows = await db.query<RawProduct>(
    `INSERT INTO loan_products (name, asset, min_minor, max_minor, terms, daily_ppm, interest_free_days,
       late_daily_ppm, late_cap_ppm, enabled, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::int[], $6, $7, $8, $9, $10, $11, $11) RETURNING ${PRODUCT_COLUMNS}`,
    [...productValues(p), at],
  );
  if (!rows[0]) throw new Error('no loan product inserted');
  return toProduct(rows[0]);
}

export async function updateProduct(
  db: Queryable,
  id: number,
  p: LoanProductFields,
  at: string,
): Promise<LoanProductRow | null> {
  const rows = await db.query<RawProduct>(
    `UPDATE loan_products SET name = $1, asset = $2, min_minor = $3, max_minor = $4, terms = $5::int[],
       daily_ppm = $6, interest_free_days = $7, late_daily_ppm = $8, late_cap_ppm = $9, enabled = $10,
       updated_at = $12
     WHERE id = $11 RETURNING ${PRODUCT_COLUMNS}`,
    [...productValues(p), id, at],
  );
  return rows[0] ? toProduct(rows[0]) : null;
}

export async function productById(db: Queryable, id: number): Promise<LoanProductRow | null> {
  const rows = await db.query<RawProduct>(`SELECT ${PRODUCT_COLUMNS} FROM loan_products WHERE id = $1`, [id]);
  return rows[0] ? toProduct(rows[0]) : null;
}

export async function listProducts(db: Queryable): Promise<LoanProductRow[]> {
  return (await db.query<RawProduct>(`SELECT ${PRODUCT_COLUMNS} FROM loan_products ORDER BY id`)).map(
    toProduct,
  );
}
