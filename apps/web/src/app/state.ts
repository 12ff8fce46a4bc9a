import { DEFAULT_LANGUAGE, isDesktopUserAgent, isLanguage, type Language } from '@swx/contract';
import { useSyncExternalStore } from 'react';
import { isDesktopLayout } from './layout.ts';

/**
 * Client state of spec §3, kept in local storage (the welcome-board flag in session storage, as it
 * shows once per browser session): language, demo flag (1 = demo, the default), login flag,
 * token, user info, viewport width, desktop layout (app/layout.ts: by user agent and width), and
 * whether the device is a phone or tablet by user agent (the welcome board shows on those only).
 */
export type UserInfo = { id: number; userName: string };

export type ClientState = {
  language: Language;
  virtual: 0 | 1;
  isLogin: boolean;
  token: string | null;
  userInfo: UserInfo | null;
  welcomeShown: boolean;
  viewWidth: number;
  isDesktop: boolean;
  isPhone: boolean;
};

const KEYS = {
  language: 'language',
  /** A second key some older builds wrote; read once at start when the first is absent (spec §9). */
  legacyLanguage: 'lang',
  virtual: 'virtual',
  isLogin: 'isLogin',
  token: 'token',
  userInfo: 'userInfo',
  welcome: 'welcomeShown',
  viewWidth: 'viewWidth',
  isDesktop: 'isDesktop',
} as const;

function read(storage: Storage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: Storage | undefined, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage full or blocked (private mode): the state still lives in memory for this visit.
  }
}

const local = typeof localStorage === 'undefined' ? undefined : localStorage;
const session = typeof sessionStorage === 'undefined' ? undefined : sessionStorage;

function parseUser(text: string | null): UserInfo | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<UserInfo>;
    return typeof value.id === 'number' && typeof value.userName === 'string'
      ? { id: value.id, userName: value.userName }
      : null;
  } catch {
    return null;
  }
}

function initialState(): ClientState {
  const storedLanguage = read(local, KEYS.language) ?? read(local, KEYS.legacyLanguage);
  const token = read(local, KEYS.token);
  const phone = typeof navigator !== 'undefined' && !isDesktopUserAgent(navigator.userAgent);
  const viewWidth = typeof window === 'undefined' ? 1280 : window.innerWidth;
  return {
    language: isLanguage(storedLanguage) ? storedLanguage : DEFAULT_LANGUAGE,
    virtual: read(local, KEYS.virtual) === '0' ? 0 : 1,
    isLogin: read(local, KEYS.isLogin) === 'true' && token !== null,
    token,
    userInfo: parseUser(read(local, KEYS.userInfo)),
    welcomeShown: read(session, KEYS.welcome) === '1',
    viewWidth,
    isDesktop: typeof window === 'undefined' ? true : isDesktopLayout(phone, viewWidth),
    isPhone: phone,
  };
}

let state = initialState();
const listeners = new Set<() => void>();

function persist(next: ClientState): void {
  write(local, KEYS.language, next.language);
  write(local, KEYS.virtual, String(next.virtual));
  write(local, KEYS.isLogin, next.isLogin ? 'true' : null);
  write(local, KEYS.token, next.token);
  write(local, KEYS.userInfo, next.userInfo ? JSON.stringify(next.userInfo) : null);
  write(session, KEYS.welcome, next.welcomeShown ? '1' : null);
  write(local, KEYS.viewWidth, String(next.viewWidth));
  write(local, KEYS.isDesktop, String(next.isDesktop));
}

export function getState(): ClientState {
  return state;
}

export function setState(patch: Partial<ClientState>): void {
  state = { ...state, ...patch };
  persist(state);
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useClientState<T>(select: (s: ClientState) => T): T {
  const snapshot = () => select(state);
  // The same state when the build draws a first paint (prerender.tsx).
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

export function logIn(token: string, userInfo: UserInfo): void {
  setState({ token, userInfo, isLogin: true });
}

/** Clears the session (token, user info, login flag) and keeps language and demo choice. */
export function clearSession(): void {
  setState({ token: null, userInfo: null, isLogin: false });
}

/**
 * An HTTP 401 clears all local storage (spec §8). The language is kept: a reader of Arabic who is
 * logged out should still read Arabic on the login page.
 */
export function clearAllStorage(): void {
  try {
    local?.clear();
  } catch {
    // Blocked storage: nothing to clear.
  }
  state = {
    ...initialState(),
    language: state.language,
    welcomeShown: state.welcomeShown,
    isDesktop: state.isDesktop,
    isPhone: state.isPhone,
    viewWidth: state.viewWidth,
  };
  persist(state);
  for (const listener of listeners) listener();
}
