/** Content types of spec §3/§9: 1 company, 2 policy, 3 footer/other; 5 FAQ and 6 announcements are ours. */
export const ContentType = { COMPANY: 1, POLICY: 2, OTHER: 3, FAQ: 5, ANNOUNCEMENT: 6 } as const;
