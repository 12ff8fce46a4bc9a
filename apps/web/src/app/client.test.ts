import { isDesktopUserAgent } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import { DESKTOP_MIN_WIDTH, isDesktopLayout, rootFontSizePx } from './layout.ts';
import { isLoginCallback, isPassPage, isTabRoot, ROUTES, routeMeta, TABS } from './routes.ts';

describe('layout by user agent (spec §4)', () => {
  it('is mobile for Android, iPhone, iPad and iPod, desktop otherwise', () => {
    expect(isDesktopUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe(false);
    expect(isDesktopUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe(false);
    expect(isDesktopUserAgent('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe(false);
    expect(isDesktopUserAgent('Mozilla/5.0 (iPod touch; CPU iPhone OS 12_0 like Mac OS X)')).toBe(false);
    expect(isDesktopUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0')).toBe(true);
  });
});

describe('layout by user agent and width', () => {
  it('is mobile on a phone at any width, and in a desktop window narrower than the desktop layout', () => {
    expect(isDesktopLayout(true, 1366)).toBe(false);
    expect(isDesktopLayout(true, 390)).toBe(false);
    expect(isDesktopLayout(false, 390)).toBe(false);
    expect(isDesktopLayout(false, DESKTOP_MIN_WIDTH - 1)).toBe(false);
    expect(isDesktopLayout(false, DESKTOP_MIN_WIDTH)).toBe(true);
    expect(isDesktopLayout(false, 1366)).toBe(true);
  });
});

describe('root font scaling (spec §9)', () => {
  it('is 16 px on desktop, and never shrinks below the 1000 px breakpoint (that would cancel text zoom)', () => {
    expect(rootFontSizePx(1920, true)).toBe(16);
    expect(rootFontSizePx(1000, true)).toBe(16);
    expect(rootFontSizePx(900, true)).toBe(16);
    // A 1366 px window at 200% zoom is 683 CSS px wide: the text stays twice as large.
    expect(rootFontSizePx(683, true)).toBe(16);
    expect(rootFontSizePx(320, true)).toBe(16);
  });

  it('grows with the viewport on mobile from a 375 px design width, never below the reader size', () => {
    expect(rootFontSizePx(375, false)).toBe(16);
    expect(rootFontSizePx(320, false)).toBe(16);
    expect(rootFontSizePx(414, false)).toBe(17.66); // 16 × 414 / 375
    expect(rootFontSizePx(1200, false)).toBe(19);
  });

  it('never exceeds 100 px', () => {
    for (const width of [100, 1000, 10_000, 1_000_000]) {
      expect(rootFontSizePx(width, true)).toBeLessThanOrEqual(100);
      expect(rootFontSizePx(width, false)).toBeLessThanOrEqual(100);
    }
  });
});

describe('routes', () => {
  it('knows each route of spec §2', () => {
    expect(routeMeta('/').title).toBe('home');
    expect(routeMeta('/profile/balance').title).toBe('balance');
    expect(routeMeta('/financial/vipInvestDetail/7').title).toBe('vipInvestDetail');
    expect(routeMeta('/api/loginCallback/google').title).toBe('loginCallback');
    expect(routeMeta('/cruuency').tab).toBe('market');
  });

  it('marks pass pages, the social callback and tab roots', () => {
    expect(isPassPage('/pass/login')).toBe(true);
    expect(isPassPage('/pass/register')).toBe(true);
    expect(isPassPage('/pass/reset')).toBe(true);
    expect(isPassPage('/profile')).toBe(false);
    expect(isLoginCallback('/api/loginCallback/github')).toBe(true);
    expect(isTabRoot('/nfts')).toBe(true);
    expect(isTabRoot('/profile/balance')).toBe(false);
  });

  it('builds the router and the shells from one list: each path shows its own entry, titled in English', () => {
    const titles = en.title as Record<string, string>;
    for (const route of ROUTES) {
      const sample = `/${route.path.replace(/:[A-Za-z]+/g, '7').replace('*', 'anything')}`.replace('//', '/');
      expect(routeMeta(sample)).toBe(route);
      expect(titles[route.title], route.title).toBeTruthy();
    }
    expect(TABS.map((tab) => tab.key)).toEqual(['home', 'market', 'trading', 'loan', 'nfts', 'profile']);
    expect(routeMeta('/no/such/page').view).toEqual({ redirect: '/' });
    expect(routeMeta('/financial/elsewhere').view).toEqual({ redirect: '/financial/cryptoInvest' });
    expect(routeMeta('/profile/invite').view).toMatchObject({ load: expect.any(Function) });
    expect(routeMeta('/register').chrome).toBe('pass');
  });
});
