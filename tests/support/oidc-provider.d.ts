// oidc-provider ships no types; the tests' provider uses a small part of it, typed at the call sites.
declare module 'oidc-provider';
