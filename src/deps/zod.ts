/**
 * zod, pinned: the one place its version is written. Every module under src/
 * imports it from here (see mcp.ts beside it for why).
 */
export * from "npm:zod@4.6.7";
