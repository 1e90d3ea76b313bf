/**
 * The `views` toolset: MCP Apps views of what the data tools found, drawn by
 * one page beside the chat. Listed only to clients that declare the extension.
 */
import { defineToolset, type Toolset } from "../kit/mod.ts";
import { refreshView, show } from "./show.ts";

/** The `views` toolset. */
export const VIEWS: Toolset = defineToolset({
  name: "views",
  description: "MCP Apps views: a pull request, its diff, a list",
  tools: [show, refreshView],
});
