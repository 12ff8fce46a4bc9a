import { getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { type Layout, screenshotTo } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import {
  AddressesPage,
  BalancePage,
  DepositPage,
  SwapPage,
  TransactionsPage,
} from '../support/pages/index.ts';

/**
 * Issue 41, as the customer reads it: the record and the balance show a swap's figures with every
 * digit of the asset (0.998778 USDT, never "1.00"), and trailing zeros only down to two decimals;
 * EVM addresses (the deposit address, the address book) in their EIP-55 checksummed form; a swap
 * that got no answer says so in words of swaps, not of orders.
 */
const app = useApp();
let swapper: Session;
let api: CustomerApi;
let back: { receive: string; fee: string; amount: string };

/** What a text says, without the left-to-right isolates around its amounts. */
const words = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
/** A decimal as screens show it in English: its digits without trailing zeros, at least two decimals. */
const shown = (decimal: string) => {
  const [whole = '0', fraction = ''] = decimal.split('.');
  const digits = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${BigInt(whole).toLocaleString('en')}.${digits}`;
};

beforeAll(async () => {
  swapper = await app.customer('precision.swapper@example.com');
  await readAllNotices(app.server, swapper.token);
  api = customerApi(app.server, swapper);
  const there = await commit('USDT', 'BTC', '1000');
  back = await commit('BTC', 'USDT', there.receive);
}, 180_000);

async function commit(from: 'USDT' | 'BTC', to: 'USDT' | 'BTC', amount: string) {
  const quote = await api.ok('swapQuote', { from, to, amount });
  return api.ok('instantExchange', { quoteId: quote.quoteId, requestId: crypto.randomUUID() });
}

describe('amounts at every digit of their asset', () => {
  for (const [layout, language] of [
    ['desktop', 'en'],
    ['mobile', 'en'],
    ['desktop', 'ar'],
    ['mobile', 'ar'],
  ] as const) {
    it(`the record and the balance show a swap's exact figures (${layout}, ${language})`, async () => {
      const { page, errors } = await app.open(layout as Layout, { as: swapper, language });
      const record = new TransactionsPage(page);
      await record.goto();
      const line = record.firstEntry();
      await line.waitFor();
      expect(await line.getAttribute('data-kind')).toBe('swap');
      const usdt = await line.locator('.record-change [data-asset="USDT"]').innerText();
      if (language === 'en') {
        expect(words(await record.what(line).innerText())).toBe(
          `Swapped ${shown(back.amount)} BTC for ${shown(back.receive)} USDT, fee ${shown(back.fee)} USDT`,
        );
        expect(usdt).toContain(`+${shown(back.receive)} USDT`);
      }
      // However the reader writes numbers, what was received and the fee keep all their digits.
      const usdtFigures = (
        (await record.what(line).innerText()).match(/\u2066[^\u2069]*\u2069/g) ?? []
      ).filter((figure) => figure.includes('USDT'));
      expect(usdtFigures).toHaveLength(2);
      for (const figure of usdtFigures) expect(figure).toMatch(/\d[.,٫]\d{3,}/);
      await screenshotTo(page, `record-swap-${layout}-${language}`);

      const balance = new BalancePage(page);
      await balance.goto();
      const { balances } = await api.ok('getBalances');
      const held = balances.find((b) => b.asset === 'USDT')?.balance ?? '';
      if (language === 'en')
        await expect.poll(() => balance.asset('USDT').innerText()).toContain(shown(held));
      else await balance.asset('USDT').waitFor();
      await screenshotTo(page, `balance-${layout}-${language}`);
      expect(errors).toEqual([]);
    }, 90_000);
  }
});

describe('EVM addresses in their checksummed form', () => {
  it('shows the deposit address and a book address as EIP-55 writes them', async () => {
    const { page, errors } = await app.signedIn('desktop', 'precision.addresses@example.com');
    const deposit = new DepositPage(page);
    await deposit.goto();
    await deposit.useLive();
    await deposit.chooseNetwork('USDT-EVM');
    await deposit.qr.waitFor();
    const address = await deposit.address.innerText();
    expect(address).toBe(getAddress(address));
    expect(address).not.toBe(address.toLowerCase());
    expect(await deposit.qr.getAttribute('data-text')).toBe(address);
    await screenshotTo(page, 'deposit-address-desktop-en');

    const book = new AddressesPage(page);
    await book.goto();
    const checksummed = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    await book.add('USDT-EVM', checksummed.toLowerCase(), 'Cold wallet');
    await book.row(checksummed).waitFor();
    expect(await book.row(checksummed).innerText()).toContain(checksummed);
    await screenshotTo(page, 'address-book-desktop-en');
    expect(errors).toEqual([]);
  }, 90_000);
});

describe('a swap that got no answer', () => {
  for (const [layout, language] of [
    ['desktop', 'en'],
    ['mobile', 'ar'],
  ] as const) {
    it(`says what may have happened to the swap, not to an order (${layout}, ${language})`, async () => {
      const { page, errors } = await app.open(layout as Layout, { as: swapper, language, quiet: true });
      // The commit never answers: the connection drops.
      await page.route('**/finance/item/instantExchange', (route) => route.abort('timedout'));
      const swap = new SwapPage(page);
      await swap.goto();
      await swap.choose('USDT', 'BTC');
      await swap.enter('100');
      await swap.openConfirm();
      await swap.accept();
      const refusal = swap.confirm.getByTestId('swap-refusal');
      await refusal.waitFor();
      const text = await refusal.innerText();
      if (language === 'en')
        expect(text).toBe(
          'No answer came from the server: the connection failed or took too long. If you had confirmed a swap, look at Recent swaps and your balance before swapping again.',
        );
      else expect(text).toContain('المبادلات الأخيرة');
      expect(text).not.toMatch(/order|أمر/i);
      await screenshotTo(page, `swap-no-answer-${layout}-${language}`);
      expect(errors).toEqual([]);
    }, 90_000);
  }
});
