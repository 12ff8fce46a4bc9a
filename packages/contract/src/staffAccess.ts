import { STAFF_DUTIES, type StaffDutyName } from './roles.ts';
import { type AdminCallName, adminCalls } from './staff.ts';
import { STAFF_ROLES, type StaffRole } from './staffBase.ts';

/**
 * The role table (roles.ts) read by call: which duty each staff call belongs to, and so which roles
 * may make it. A call belongs to the duty whose roles it declares (the same array, not a copy).
 */

/** The duty of a staff call; null for the public sign-in steps; throws for a call outside the table. */
export function staffDutyOf(name: AdminCallName): StaffDutyName | null {
  const roles = adminCalls[name].roles;
  if (roles === 'public') return null;
  for (const [duty, entry] of Object.entries(STAFF_DUTIES) as [StaffDutyName, { roles: unknown }][])
    if (entry.roles === roles) return duty;
  throw new Error(`staff call ${name} takes its roles from no duty of STAFF_DUTIES`);
}

/** The staff calls of each duty, in the contract's order. */
export function staffCallsByDuty(): Record<StaffDutyName, AdminCallName[]> {
  const byDuty = Object.fromEntries(Object.keys(STAFF_DUTIES).map((d) => [d, []])) as unknown as Record<
    StaffDutyName,
    AdminCallName[]
  >;
  for (const name of Object.keys(adminCalls) as AdminCallName[]) {
    const duty = staffDutyOf(name);
    if (duty) byDuty[duty].push(name);
  }
  return byDuty;
}

/** May a staff member of this role make this call? (The public sign-in steps: everyone.) */
export function staffMay(role: StaffRole, name: AdminCallName): boolean {
  const roles = adminCalls[name].roles;
  return roles === 'public' || (roles as readonly string[]).includes(role);
}

/** The README's role table (section "Back office"), generated from the table: a test keeps them equal. */
export function staffRoleTable(): string {
  const byDuty = staffCallsByDuty();
  const lines = [
    `| What | ${STAFF_ROLES.map((r) => `\`${r}\``).join(' | ')} | Calls |`,
    `| --- | ${STAFF_ROLES.map(() => ':---:').join(' | ')} | --- |`,
  ];
  for (const [duty, entry] of Object.entries(STAFF_DUTIES) as [
    StaffDutyName,
    { does: string; roles: readonly string[] },
  ][]) {
    const marks = STAFF_ROLES.map((r) => (entry.roles.includes(r) ? 'yes' : '-'));
    const calls = byDuty[duty].map((c) => `\`${c}\``).join(', ');
    lines.push(`| ${entry.does} | ${marks.join(' | ')} | ${calls} |`);
  }
  return lines.join('\n');
}
