/**
 * Quick 2025-era answers sent whole: an event stream that ends within the
 * window becomes one body of the same bytes; one still open streams what was
 * read, then the rest, and passes a cancel on; anything else is untouched.
 * Then over `serve --http`: a quick call is answered with a length, a slow
 * one as a stream.
 */
import assert from "node:assert/strict";
import { wholeIfQuick } from "../../src/server/whole_answers.ts";
import { refs } from "../../testing/cases/refs.ts";
import { startHttp } from "../support/http_server.ts";

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SSE = { "content-type": "text/event-stream", "x-kept": "yes" };

/** An event stream sending `events`, each `gapMs` after the last; `state` says how far it got. */
function events(events: string[], gapMs: number) {
  const state = { sent: 0, closed: false, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await sleep(gapMs);
      if (state.sent === events.length) {
        state.closed = true;
        return controller.close();
      }
      controller.enqueue(encoder.encode(`data: ${events[state.sent++]}\n\n`));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body, { status: 200, headers: SSE }), state };
}

Deno.test("whole answers: an event stream that ends in the window is one body of the same events, status and headers", async () => {
  const { response, state } = events(["a", "b"], 5);
  const answer = await wholeIfQuick(response, 1_000);
  assert.equal(state.closed, true, "the source was read to its end before answering");
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get("x-kept"), "yes");
  assert.equal(await answer.text(), "data: a\n\ndata: b\n\n");
});

Deno.test("whole answers: a stream still open at the end of the window streams what was read, then the rest", async () => {
  const { response, state } = events(["1", "2", "3", "4"], 40);
  const answer = await wholeIfQuick(response, 60);
  assert.equal(state.closed, false, "answered before the source ended");
  assert.ok(state.sent >= 1 && state.sent < 4, `answered mid-stream (${state.sent} sent)`);
  assert.equal(await answer.text(), "data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n");
});

Deno.test("whole answers: cancelling a streamed answer cancels its source", async () => {
  const { response, state } = events(["1", "2", "3", "4"], 40);
  const answer = await wholeIfQuick(response, 10);
  await answer.body!.cancel();
  assert.equal(state.cancelled, true);
});

Deno.test("whole answers: a JSON answer is passed on as it is", async () => {
  const json = Response.json({ ok: true });
  assert.equal(await wholeIfQuick(json, 1_000), json);
});

Deno.test("whole answers: over serve --http, a quick 2025-era call has a length and a slow one streams", async () => {
  await using h = startHttp({
    routes: [
      {
        method: "GET",
        path: "/api/latest/projects/PROJ/repos/web/tags",
        fixture: "refs/tags.json",
        delayMs: 600,
      },
      ...refs.routes,
    ],
  });
  const call = (name: string) =>
    fetch(h.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: "Bearer caller-token",
        "MCP-Protocol-Version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, arguments: { project: "PROJ", repo: "web" } },
      }),
    });
  const quick = await call("list_branches");
  assert.equal(quick.headers.get("content-type"), "text/event-stream");
  assert.ok(quick.headers.get("content-length"), "sent whole, with its length");
  assert.match(await quick.text(), /"branches":\[\{/);
  const slow = await call("list_tags");
  assert.equal(slow.headers.get("content-type"), "text/event-stream");
  assert.equal(slow.headers.get("content-length"), null, "streamed");
  assert.match(await slow.text(), /"tags":\[/);
});
