import { z } from 'zod/mini';

/**
 * One call of spec §7, under the customer API base `/swx/customer`. A call whose module has not
 * landed yet is declared with `status: 'planned'` and open schemas; the issue that builds it
 * completes its schemas and flips it to `live`. The server mounts only live calls, so a planned
 * call answers the catalogue's "not found" rather than pretending to work.
 */
export type CallDefinition = {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  /** Needs the `Authorization` token of a customer session. */
  auth: boolean;
  status: 'live' | 'planned';
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  data: z.ZodMiniType;
};

/** The open data schema of a planned call. */
export const planned = z.unknown();

/* @__NO_SIDE_EFFECTS__ */
export function call<const D extends CallDefinition>(definition: D): D {
  return definition;
}
