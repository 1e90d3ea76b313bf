import { z } from "zod";

/**
 * One datum of a Code Insights report (RestInsightReportData). `value`'s shape
 * follows `type`: a number for NUMBER, PERCENTAGE, DATE (epoch ms) and DURATION (ms),
 * a boolean for BOOLEAN, a string for TEXT, `{ linktext, href }` for LINK.
 */
export const InsightReportData = z.object({
  title: z.string(),
  type: z.string().optional(), // BOOLEAN, DATE, DURATION, LINK, NUMBER, PERCENTAGE or TEXT
  value: z.unknown(),
});

/** A Code Insights report on a commit (RestInsightReport), without its logo. */
export const InsightReport = z.object({
  key: z.string(),
  title: z.string(),
  result: z.string().optional(), // PASS or FAIL; absent when the report has no verdict
  reporter: z.string().optional(),
  link: z.string().optional(),
  details: z.string().optional(),
  createdDate: z.number().optional(),
  data: z.array(InsightReportData).default([]),
});
