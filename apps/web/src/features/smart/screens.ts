/**
 * The smart trading screens, one chunk: the routes load it through one import (routes.ts `smart`),
 * so the entry chunk carries one preload list for the four routes. The equity chart is its own
 * chunk, loaded by the product page.
 */
export { default as Plan } from './Plan.tsx';
export { default as Plans } from './Plans.tsx';
export { default as Product } from './Product.tsx';
export { default as Products } from './Products.tsx';
