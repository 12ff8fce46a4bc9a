import type { CodeValue } from '../codes.ts';

/** One language's text for every catalogue code; the type makes a missing code a compile error. */
export type CatalogueMessages = Record<CodeValue, string>;
