/**
 * The self-custody wallet's screens, one chunk (with the key libraries): the routes load it
 * through one import (routes.ts `custody`), and nothing of it is in the entry chunk.
 */
export { default as AddAddress } from './AddAddress.tsx';
export { default as Create } from './Create.tsx';
export { default as Overview } from './Overview.tsx';
export { default as Restore } from './Restore.tsx';
export { default as Reveal } from './Reveal.tsx';
export { default as Verify } from './Verify.tsx';
