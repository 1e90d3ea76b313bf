/**
 * The hand-written registry (src/metrics/registry.ts): what it renders is the
 * exposition format a Prometheus server reads, label values escaped so that
 * no value can end a label or a line, histograms cumulative, and a family
 * takes only the labels it was declared with.
 */
import assert from "node:assert/strict";
import {
  Counter,
  escapeLabelValue,
  Gauge,
  Histogram,
  Registry,
} from "../../src/metrics/registry.ts";
import { parseExposition, valueOf } from "../support/prometheus.ts";

Deno.test("registry: label values with a backslash, a quote or a newline are escaped and read back as sent", () => {
  const registry = new Registry();
  const counter = registry.add(new Counter("t_total", "a test\\counter\nwith two lines", ["v"]));
  const awkward = ['a"b', "back\\slash", "new\nline", '\\"\n', "} 1\nfake_total 99"];
  for (const value of awkward) counter.inc([value]);
  const text = registry.render();
  const scrape = parseExposition(text);
  for (const value of awkward) assert.equal(valueOf(scrape, "t_total", { v: value }), 1, value);
  assert.equal(valueOf(scrape, "fake_total"), 0, "a value cannot start a line of its own");
  assert.equal(scrape.help.get("t_total"), "a test\\\\counter\\nwith two lines");
  assert.equal(escapeLabelValue('\\"\n'), '\\\\\\"\\n');
});

Deno.test("registry: a histogram's buckets are cumulative, +Inf is its count, sum the total", () => {
  const registry = new Registry();
  const bounds = [0.1, 1, 10];
  const h = registry.add(new Histogram("d_seconds", "durations", ["k"], bounds));
  const observed = [0.05, 0.1, 0.5, 5, 50];
  for (const v of observed) h.observe(["x"], v);
  const scrape = parseExposition(registry.render());
  for (const le of bounds) {
    assert.equal(
      valueOf(scrape, "d_seconds_bucket", { k: "x", le: String(le) }),
      observed.filter((v) => v <= le).length,
      `le=${le}`,
    );
  }
  assert.equal(valueOf(scrape, "d_seconds_bucket", { k: "x", le: "+Inf" }), observed.length);
  assert.equal(valueOf(scrape, "d_seconds_count", { k: "x" }), observed.length);
  assert.equal(valueOf(scrape, "d_seconds_sum", { k: "x" }), observed.reduce((a, b) => a + b));
  assert.equal(scrape.types.get("d_seconds"), "histogram");
});

Deno.test("registry: a family takes exactly its declared labels; counters only go up; names are checked", () => {
  const counter = new Counter("c_total", "c", ["a"]);
  assert.throws(() => counter.inc([]), /takes labels a/);
  assert.throws(() => counter.inc(["x", "y"]), /takes labels a/);
  assert.throws(() => counter.inc(["x"], -1), /only goes up/);
  assert.throws(() => new Counter("bad-name", "x"), /bad metric name/);
  assert.throws(() => new Counter("ok_total", "x", ["le"]), /bad label name/);
  assert.throws(() => new Histogram("h", "x", [], [1, 1]), /ascend/);
  const registry = new Registry();
  registry.add(new Counter("dup_total", "x"));
  assert.throws(() => registry.add(new Counter("dup_total", "x")), /registered twice/);
});

Deno.test("registry: a gauge read at scrape time shows the value of that moment; an unlabelled family shows 0 at first", () => {
  const registry = new Registry();
  let now = 1;
  registry.add(new Gauge("g", "read when scraped", [], (g) => g.set([], now)));
  registry.add(new Counter("n_total", "never counted"));
  assert.equal(valueOf(parseExposition(registry.render()), "g"), 1);
  now = 7;
  const scrape = parseExposition(registry.render());
  assert.equal(valueOf(scrape, "g"), now);
  assert.ok(scrape.samples.some((s) => s.name === "n_total" && s.value === 0));
});
