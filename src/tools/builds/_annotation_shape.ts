/** Code Insights annotations (line-level findings) as tools return them. */
import { z } from "../../deps/zod.ts";
import type { InsightAnnotation } from "../../bitbucket/entities/insights.ts";
import { cleanText } from "../../bitbucket/text/untrusted_text.ts";
import { visibleId } from "../../bitbucket/text/visible_id.ts";

/** The severities Bitbucket gives a finding: what a filter may name and an annotation must carry. */
export const SEVERITIES = ["LOW", "MEDIUM", "HIGH"] as const;

/** One finding a code analysis reported on a commit. */
export const AnnotationOut = z.object({
  reportKey: z.string().optional().describe("The report it belongs to"),
  path: z.string().optional(),
  line: z.number().int().optional().describe("Absent or 0: the whole file"),
  severity: z.string().optional().describe("LOW, MEDIUM or HIGH"),
  type: z.string().optional().describe("BUG, CODE_SMELL or VULNERABILITY"),
  message: z.string(),
  link: z.string().optional().describe("The finding in the analysis tool"),
});

/** Trims a Bitbucket annotation to {@link AnnotationOut}. */
export function annotationOut(a: z.infer<typeof InsightAnnotation>): z.infer<typeof AnnotationOut> {
  return {
    reportKey: visibleId(a.reportKey),
    path: visibleId(a.path),
    line: a.line,
    severity: a.severity,
    type: a.type,
    message: cleanText(a.message),
    link: visibleId(a.link),
  };
}
