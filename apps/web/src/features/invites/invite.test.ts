import { describe, expect, it } from 'vitest';
import { bpsRatio, inviteLink, nextBefore, splitShare } from './invite.ts';

describe('the invite link', () => {
  it("is the site's origin and the server's path, with the code as it was given", () => {
    expect(inviteLink('https://swx.example', '/register?invite=ABCD2345')).toBe(
      'https://swx.example/register?invite=ABCD2345',
    );
    expect(inviteLink('http://127.0.0.1:4010', '/pass/register?invite=ZZZZ9999')).toBe(
      'http://127.0.0.1:4010/pass/register?invite=ZZZZ9999',
    );
  });
});

describe('basis points as a ratio', () => {
  it('moves the decimal point in the string, never through a float', () => {
    expect(bpsRatio(2000)).toBe('0.2');
    expect(bpsRatio(1500)).toBe('0.15');
    expect(bpsRatio(500)).toBe('0.05');
    expect(bpsRatio(5)).toBe('0.0005');
    expect(bpsRatio(0)).toBe('0');
    expect(bpsRatio(10_000)).toBe('1');
    expect(bpsRatio(12_345)).toBe('1.2345');
  });
});

describe('the share and the rebate', () => {
  it('takes the rebate out of the share: 20 % and 5 % give the inviter 15 % and the friend 5 %', () => {
    expect(splitShare(2000, 500)).toEqual({ inviterBps: 1500, friendBps: 500 });
    expect(splitShare(2000, 0)).toEqual({ inviterBps: 2000, friendBps: 0 });
    expect(splitShare(2000, 1000)).toEqual({ inviterBps: 1000, friendBps: 1000 });
  });

  it('never gives back more than the share', () => {
    expect(splitShare(500, 1000)).toEqual({ inviterBps: 0, friendBps: 500 });
    expect(splitShare(0, 500)).toEqual({ inviterBps: 0, friendBps: 0 });
  });
});

describe('keyset paging', () => {
  const rows = (...ids: number[]) => ids.map((id) => ({ id }));

  it('asks for the rows before the last one shown while a page comes back full', () => {
    expect(nextBefore(rows(9, 8, 7), 3)).toBe(7);
  });

  it('stops after a short or empty page', () => {
    expect(nextBefore(rows(9, 8), 3)).toBeUndefined();
    expect(nextBefore([], 3)).toBeUndefined();
  });
});
