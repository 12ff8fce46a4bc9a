import { proofBranchData, proofBranchQuery, proofRootsData, proofRootsQuery } from '../proofs.ts';
import { type CallDefinition, call } from './define.ts';

/** Proof of liabilities (`modules/proofs`): the published roots, and a customer's own branch. */
export const proofsCalls = {
  getProofRoots: call({
    method: 'GET',
    path: '/proof/getRoots',
    summary:
      'The signed roots of the proof of liabilities of a day (the latest when none is asked), per asset, with the platform’s on-chain holdings read at one block, and the days published',
    auth: false,
    status: 'live',
    query: proofRootsQuery,
    data: proofRootsData,
  }),
  getMyProofBranch: call({
    method: 'GET',
    path: '/proof/getMyBranch',
    summary:
      'My leaf of a day’s tree for an asset (my secret, my figures) and its branch to the signed root, to verify in the page; leaf null when I held nothing in that asset',
    auth: true,
    status: 'live',
    query: proofBranchQuery,
    data: proofBranchData,
  }),
} as const satisfies Record<string, CallDefinition>;
