/** Written by the build (vite.config.ts, `callRoutesModule`) from the contract's calls. */
declare module 'virtual:swx/call-routes' {
  import type { CallName, CallRoute } from '@swx/contract';
  export const CALL_ROUTES: Record<CallName, CallRoute>;
}
