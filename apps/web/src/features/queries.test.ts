import { describe, expect, it } from 'vitest';
import { contentQueries } from './content/queries.ts';
import { helpQueries } from './help/queries.ts';
import { identityQueries } from './identity/queries.ts';
import { inviteQueries } from './invites/queries.ts';
import { kycQueries } from './kyc/queries.ts';
import { ledgerQueries } from './ledger/queries.ts';
import { marketQueries } from './market/queries.ts';
import { noticeQueries } from './notices/queries.ts';
import { operatorQueries } from './operator/queries.ts';
import { tradeQueries } from './positions/queries.ts';
import { statsQueries } from './stats/queries.ts';

/** Every query of a domain, built with sample arguments (German, so the language is seen in keys). */
const domains = {
  content: [
    contentQueries,
    [contentQueries.footer('de'), contentQueries.byType('de', 1), contentQueries.detail('de', 3)],
  ],
  help: [
    helpQueries,
    [helpQueries.list('de', 5, 0), helpQueries.article('de', 3), helpQueries.search('de', 'Demo')],
  ],
  identity: [
    identityQueries,
    [identityQueries.socialProviders(), identityQueries.totp(1), identityQueries.sessions(1)],
  ],
  invites: [inviteQueries, [inviteQueries.summary(1), inviteQueries.friends(1), inviteQueries.rewards(1)]],
  kyc: [kycQueries, [kycQueries.status(1, 'de'), kycQueries.creditScore(1, 'de')]],
  ledger: [ledgerQueries, [ledgerQueries.balances(1, 'demo'), ledgerQueries.transactions(1, 'live', {})]],
  market: [
    marketQueries,
    [
      marketQueries.byType('de', 2),
      marketQueries.info('de', 5),
      marketQueries.candles('BTCUSDT', '1h'),
      marketQueries.watchlist(1, 'de'),
    ],
  ],
  notices: [noticeQueries, [noticeQueries.list(1, 'de'), noticeQueries.unread(1, 'de')]],
  operator: [operatorQueries, [operatorQueries.settings()]],
  stats: [statsQueries, [statsQueries.platform()]],
  trade: [
    tradeQueries,
    [
      tradeQueries.terms('de', 5),
      tradeQueries.orders(1, 'demo', 'open', 1, 'de'),
      tradeQueries.order(1, 'live', 9, 'de'),
      tradeQueries.preview(1, 'demo', 'de', '{}'),
    ],
  ],
} as const satisfies Record<
  string,
  readonly [{ all: readonly string[] }, readonly { queryKey: readonly unknown[] }[]]
>;

describe('query factories', () => {
  it('put every key of a domain under its root key, so invalidating the root reaches them all', () => {
    const roots = new Set<string>();
    for (const [name, [factory, queries]] of Object.entries(domains)) {
      expect(factory.all).toEqual([name]);
      roots.add(factory.all[0] as string);
      for (const query of queries) expect(query.queryKey.slice(0, 1), String(query.queryKey)).toEqual([name]);
    }
    expect(roots.size).toBe(Object.keys(domains).length);
  });

  it('keep sub-lists that are invalidated alone under the root', () => {
    expect(ledgerQueries.transactions(1, 'demo', {}).queryKey.slice(0, 2)).toEqual(
      ledgerQueries.transactionLists,
    );
    expect(marketQueries.watchlist(1, 'en').queryKey.slice(0, 2)).toEqual(marketQueries.watchlists);
  });

  it('carry the language in the key of server-worded data, and the book in money keys', () => {
    expect(marketQueries.byType('de', 2).queryKey).toContain('de');
    expect(noticeQueries.unread(1, 'ar').queryKey).toContain('ar');
    expect(tradeQueries.orders(1, 'live', 'open', 1, 'de').queryKey).toContain('live');
    expect(ledgerQueries.balances(1, 'demo').queryKey).not.toEqual(
      ledgerQueries.balances(1, 'live').queryKey,
    );
  });
});
