import { Code, FOUR_EYES_KINDS } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { AuditService } from '../audit/audit.service.ts';
import { thresholdFromParams } from '../review/review.define.ts';
import { StaffService } from '../staff/staff.service.ts';
import { FourEyesSettingsService } from './params.fourEyes.ts';
import { ParamProposals } from './params.proposals.ts';
import { ParamsService } from './params.service.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;

describe(`four-eyes thresholds on ${TEST_DB}: one admin proposes, another approves`, () => {
  let t: TestDatabase;
  let settings: FourEyesSettingsService;
  let params: ParamsService;
  let audit: AuditService;
  let staff: StaffService;
  const ids = { ann: 0, ben: 0 };
  const ann = () => ({ staffId: ids.ann });
  const ben = () => ({ staffId: ids.ben });

  beforeAll(async () => {
    t = await openTestDatabase();
    audit = new AuditService(t.db);
    staff = new StaffService({
      db: t.db,
      audit,
      rateLimiter: createMemoryRateLimiter(),
      keys: new KeyRing(Buffer.alloc(32, 5)),
    });
    ids.ann = (await staff.create({ email: 'ann@swx.test', role: 'admin' }, null)).staff.id;
    ids.ben = (await staff.create({ email: 'ben@swx.test', role: 'admin' }, null)).staff.id;
    settings = new FourEyesSettingsService({ db: t.db, audit, staff });
    params = new ParamsService(t.db);
  });
  afterAll(() => t.close());

  const auditOf = (key: string) =>
    t.db.query<{ actor: string; action: string }>(
      'SELECT actor, action FROM audit_log WHERE subject = $1 ORDER BY seq',
      [key],
    );

  it('seeds a threshold of about 10,000 USD for every kind and asset', async () => {
    const { thresholds, pending } = await settings.settings();
    expect(pending).toEqual([]);
    expect(thresholds).toHaveLength(FOUR_EYES_KINDS.length * 4);
    for (const kind of FOUR_EYES_KINDS)
      expect(
        Object.fromEntries(thresholds.filter((x) => x.kind === kind).map((x) => [x.asset, x.value])),
        kind,
      ).toEqual({ USDT: '10000', USDC: '10000', BTC: '0.1', ETH: '2.5' });
    // The name the deposit proofs' review reads.
    expect(await params.get('fourEyesAbove.depositProof.USDT')).toBe('10000');
  });

  it('a change applies only once a second admin approves it; the proposer cannot', async () => {
    const above = thresholdFromParams(params, 'fourEyesAbove.loan');
    const proposal = await settings.propose(ann(), { kind: 'loan', asset: 'USDT', value: '25000.50' });
    expect(proposal).toMatchObject({
      kind: 'loan',
      asset: 'USDT',
      value: '25000.5',
      before: '10000',
      state: 'pending',
      proposedBy: { email: 'ann@swx.test' },
      decidedBy: null,
    });
    // Nothing changed yet.
    expect(await above('USDT')).toBe(10_000_000_000n);
    // A second change of the same threshold waits for the first to be decided: 10048.
    await expect(settings.propose(ben(), { kind: 'loan', asset: 'USDT', value: '1' })).rejects.toSatisfy(
      refusedWith(Code.CHANGE_AWAITS_SECOND_ADMIN),
    );
    // Another threshold may be proposed meanwhile.
    const other = await settings.propose(ben(), { kind: 'loan', asset: 'BTC', value: '0.5' });
    // The proposer approving their own change: 10049, and still nothing changed.
    await expect(settings.approve(ann(), proposal.id)).rejects.toSatisfy(refusedWith(Code.OWN_PROPOSAL));
    expect(await above('USDT')).toBe(10_000_000_000n);
    expect((await settings.settings()).pending.map((p) => p.id)).toEqual([proposal.id, other.id]);
    // The second admin approves: the threshold is the review's from now on.
    const approved = await settings.approve(ben(), proposal.id);
    expect(approved).toMatchObject({ state: 'approved', decidedBy: { email: 'ben@swx.test' } });
    expect(await above('USDT')).toBe(25_000_500_000n);
    // Decided once: a second decision finds nothing waiting.
    await expect(settings.approve(ben(), proposal.id)).rejects.toSatisfy(refusedWith(Code.NOT_FOUND));
    // Turned down: the threshold stays.
    await settings.reject(ann(), other.id);
    expect(await above('BTC')).toBe(10_000_000n);
    expect(await auditOf('fourEyesAbove.loan.USDT')).toEqual([
      { actor: `staff:${ids.ann}`, action: 'four_eyes.proposed' },
      { actor: `staff:${ids.ben}`, action: 'four_eyes.approved' },
    ]);
    expect(await auditOf('fourEyesAbove.loan.BTC')).toEqual([
      { actor: `staff:${ids.ben}`, action: 'four_eyes.proposed' },
      { actor: `staff:${ids.ann}`, action: 'four_eyes.rejected' },
    ]);
    const { pending, recent } = await settings.settings();
    expect(pending).toEqual([]);
    expect(recent.map((p) => [p.id, p.state])).toEqual([
      [other.id, 'rejected'],
      [proposal.id, 'approved'],
    ]);
  });

  it('removing a threshold (none: one approval suffices) also takes a second admin', async () => {
    const proposal = await settings.propose(ben(), { kind: 'earn', asset: 'ETH', value: null });
    expect(await params.get('fourEyesAbove.earn.ETH')).toBe('2.5');
    await settings.approve(ann(), proposal.id);
    expect(await params.get('fourEyesAbove.earn.ETH')).toBeNull();
    const row = (await settings.settings()).thresholds.find((x) => x.kind === 'earn' && x.asset === 'ETH');
    expect(row?.value).toBeNull();
    // Set again, with more decimals than the asset has: refused.
    await expect(
      settings.propose(ben(), { kind: 'earn', asset: 'USDT', value: '1.0000001' }),
    ).rejects.toSatisfy(refusedWith(Code.INVALID_INPUT));
  });

  it('another setting changed under four eyes shares the proposals but not their calls', async () => {
    // A setting of its own keys (as the loans' limit rule is), on the same proposals.
    const other = new ParamProposals(
      { db: t.db, audit },
      {
        prefix: 'test.rule',
        audit: 'test.rule',
        normalise: (_key, value) => value,
        describe: () => 'A test rule',
      },
    );
    const refs = (staffIds: number[]) => staff.refsOf(staffIds);
    const rule = await other.propose(ann(), 'test.rule', '{"a":1}', refs);
    expect(rule).toMatchObject({ key: 'test.rule', value: '{"a":1}', before: null, state: 'pending' });
    // Not a threshold's: the thresholds neither list it nor decide it.
    expect((await settings.settings()).pending.map((p) => p.id)).not.toContain(rule.id);
    await expect(settings.approve(ben(), rule.id)).rejects.toSatisfy(refusedWith(Code.NOT_FOUND));
    await expect(settings.reject(ben(), rule.id)).rejects.toSatisfy(refusedWith(Code.NOT_FOUND));
    // Nor does the other setting list or decide a threshold's.
    const threshold = await settings.propose(ann(), { kind: 'loan', asset: 'ETH', value: '3' });
    expect((await other.list(refs)).pending.map((p) => p.id)).toEqual([rule.id]);
    await expect(other.approve(ben(), threshold.id, refs)).rejects.toSatisfy(refusedWith(Code.NOT_FOUND));
    // Its own approval writes its parameter, audited under its own actions.
    await other.approve(ben(), rule.id, refs);
    expect(await params.get('test.rule')).toBe('{"a":1}');
    expect(await other.applied('test.rule', refs)).toMatchObject({
      value: '{"a":1}',
      setBy: { id: rule.id, state: 'approved', decidedBy: { email: 'ben@swx.test' } },
    });
    expect(await auditOf('test.rule')).toEqual([
      { actor: `staff:${ids.ann}`, action: 'test.rule.proposed' },
      { actor: `staff:${ids.ben}`, action: 'test.rule.approved' },
    ]);
    await settings.reject(ann(), threshold.id);
  });

  it('the database refuses an approval by the proposer whatever the code does', async () => {
    const proposal = await settings.propose(ann(), { kind: 'withdrawal', asset: 'USDC', value: '500' });
    await expect(
      t.db.query(
        `UPDATE four_eyes_proposals SET decision = 'approved', decided_by = proposed_by, decided_at = now()
         WHERE id = $1`,
        [proposal.id],
      ),
    ).rejects.toThrow(/check/i);
  });
});
