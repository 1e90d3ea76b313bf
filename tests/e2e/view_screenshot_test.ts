/**
 * The README's picture of a view, `docs/view-pull-request.png`: pull request
 * #42 in the stand-in host, cropped small. `deno task view-screenshot`
 * (UPDATE_VIEW_SCREENSHOT=1) takes it anew in headless Chromium; otherwise
 * this only checks the committed file is a PNG of that size, under the
 * budget, since pixels differ from one Chromium build to the next.
 */
import assert from "node:assert/strict";
import { openView } from "../support/view_session.ts";

const PICTURE = new URL("../../docs/view-pull-request.png", import.meta.url);
/** The README's budget for the picture (it grew from 60 KiB when the view's files, buttons and comment box came into it). */
const MAX_BYTES = 72 * 1024;
/** The crop, in CSS pixels at scale 1: the header, people, builds, merge checks, files, buttons and comment box. */
const CLIP = { x: 0, y: 0, width: 720, height: 720 };
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

Deno.test("view screenshot: docs/view-pull-request.png is the pull request view, cropped and small", async () => {
  if (Deno.env.get("UPDATE_VIEW_SCREENSHOT") === "1") {
    await using view = await openView({
      args: { kind: "pull_request", project: "PROJ", repo: "web", pr_id: 42 },
      width: CLIP.width,
      height: CLIP.height,
    });
    await Deno.writeFile(PICTURE, await view.tab.screenshot(CLIP));
  }
  const png = await Deno.readFile(PICTURE);
  assert.deepEqual([...png.subarray(0, 8)], PNG_SIGNATURE, "a PNG");
  const header = new DataView(png.buffer, png.byteOffset + 16, 8);
  assert.deepEqual(
    { width: header.getUint32(0), height: header.getUint32(4) },
    { width: CLIP.width, height: CLIP.height },
  );
  assert.ok(png.length < MAX_BYTES, `${png.length} bytes, over ${MAX_BYTES}`);
});
