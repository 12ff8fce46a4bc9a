import { describe, expect, it } from 'vitest';
import { loadCallDomain } from './calls/load.ts';
import { type CallName, callDomains, callRoutes, calls } from './calls.ts';

describe('the calls by domain', () => {
  it('holds every call once, in the order of the domains', () => {
    const byDomain = Object.values(callDomains).flatMap((domain) => Object.keys(domain));
    expect(new Set(byDomain).size).toBe(byDomain.length);
    expect(Object.keys(calls)).toEqual(byDomain);
  });

  it('routes every call by its method and path to the domain that holds it', () => {
    const routes = callRoutes();
    expect(Object.keys(routes).sort()).toEqual(Object.keys(calls).sort());
    for (const [name, [method, path, domain]] of Object.entries(routes)) {
      const definition = calls[name as CallName];
      expect([method, path]).toEqual([definition.method, definition.path]);
      expect(callDomains[domain]).toHaveProperty(name, definition);
    }
  });

  it("loads each domain's own calls as a module", async () => {
    expect(Object.keys(loadCallDomain).sort()).toEqual(Object.keys(callDomains).sort());
    for (const [domain, load] of Object.entries(loadCallDomain))
      expect(await load()).toBe(callDomains[domain as keyof typeof callDomains]);
  });
});
