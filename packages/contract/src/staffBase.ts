import type { z } from 'zod/mini';

/**
 * The primitives of the staff API that the domain files build their staff calls on: the base path,
 * the role names and the shape of a staff call. A base file: it imports no domain file, and
 * staff.ts (the aggregate of every staff call) is the only contract file that imports the domains'
 * staff calls.
 */
export const ADMIN_API_BASE = '/swx/admin';

export const STAFF_ROLES = ['admin', 'compliance', 'finance', 'support'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export type AdminCallDefinition = {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  /** The roles allowed; 'public' calls are the sign-in steps (no staff session yet). */
  roles: readonly StaffRole[] | 'public';
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  data: z.ZodMiniType;
  /** The refusals particular to the call, code → when (published as `x-refusals` in its OpenAPI operation). */
  refusals?: Readonly<Record<number, string>>;
};
