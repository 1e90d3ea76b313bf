/**
 * One browser tab seen through DevTools: the page and every frame in it
 * (sandboxed iframes run in their own process, attached as child targets),
 * with every network request any of them attempts, every console line and
 * uncaught error recorded, bindings from the page to the test, evaluation in
 * the top page or in the embedded view, and screenshots.
 */
import type { Cdp, CdpEvent } from "./cdp.ts";
import type { OpenOptions } from "./chromium.ts";

/** A request a frame of the tab attempted (sent, or blocked before it left). */
export interface AttemptedRequest {
  url: string;
  /** The resource type DevTools gives (`Document`, `Image`, `Fetch`, …). */
  type: string;
  frameId: string;
  /** Why the browser stopped it (`csp`, `inspector`, …), once known. */
  blocked?: string;
}

/** A console line, browser log entry or uncaught error from any frame. */
export interface LogLine {
  kind: "console" | "log" | "exception";
  level: string;
  text: string;
}

interface FrameContext {
  sessionId: string;
  contextId: number;
}

/** A tab: open with {@link Tab.open}, then read what it did. */
export class Tab {
  readonly requests: AttemptedRequest[] = [];
  readonly log: LogLine[] = [];
  readonly #cdp: Cdp;
  readonly #sessionId: string;
  readonly #mainFrame: string;
  readonly #sessions = new Set<string>();
  readonly #frames = new Map<string, FrameContext>();
  readonly #bindings = new Map<string, (payload: string) => void>();
  /** Calls made before the test set a handler, kept for it. */
  readonly #early = new Map<string, string[]>();
  readonly #stops: (() => void)[] = [];
  readonly #changed = new Set<() => void>();

  private constructor(cdp: Cdp, sessionId: string, mainFrame: string) {
    this.#cdp = cdp;
    this.#sessionId = sessionId;
    this.#mainFrame = mainFrame;
    this.#sessions.add(sessionId);
  }

  /** Opens a blank tab, wires every recorder and binding, then navigates it to `url` and waits for load. */
  static async open(cdp: Cdp, url: string, options: OpenOptions): Promise<Tab> {
    const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" }) as {
      targetId: string;
    };
    const { sessionId } = await cdp.send("Target.attachToTarget", {
      targetId,
      flatten: true,
    }) as { sessionId: string };
    const tab = new Tab(cdp, sessionId, targetId);
    tab.#listen();
    await tab.#prepare(sessionId, false);
    await cdp.send("Page.enable", {}, sessionId);
    await cdp.send("Emulation.setDeviceMetricsOverride", {
      width: options.width ?? 900,
      height: options.height ?? 700,
      deviceScaleFactor: 1,
      mobile: false,
    }, sessionId);
    for (const name of options.bindings ?? []) {
      await cdp.send("Runtime.addBinding", { name }, sessionId);
    }
    await tab.navigate(url);
    return tab;
  }

  /** Calls `handler` with each string the page passes to `window.<name>(…)`, earlier calls first. */
  onBinding(name: string, handler: (payload: string) => void): void {
    this.#bindings.set(name, handler);
    for (const payload of this.#early.get(name) ?? []) handler(payload);
    this.#early.delete(name);
  }

  /** Navigates the top page and waits for its load event. */
  async navigate(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => {
      const stop = this.#cdp.on("Page.loadEventFired", (event) => {
        if (event.sessionId !== this.#sessionId) return;
        stop();
        resolve();
      });
    });
    const result = await this.#cdp.send("Page.navigate", { url }, this.#sessionId) as {
      errorText?: string;
    };
    if (result.errorText) throw new Error(`Cannot open ${url}: ${result.errorText}`);
    await loaded;
  }

  /**
   * Evaluates `expression` (awaiting a promise) in the top page or in the
   * embedded view, the tab's one child frame, and returns its JSON value.
   */
  async evaluate<T = unknown>(expression: string, where: "host" | "view" = "host"): Promise<T> {
    const frame = where === "host" ? this.#frames.get(this.#mainFrame) : await this.#viewFrame();
    if (!frame) throw new Error(`the ${where} frame has no script context`);
    const result = await this.#cdp.send("Runtime.evaluate", {
      expression,
      contextId: frame.contextId,
      returnByValue: true,
      awaitPromise: true,
    }, frame.sessionId) as {
      result: { value?: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (result.exceptionDetails) {
      const details = result.exceptionDetails;
      throw new Error(
        `evaluating in the ${where}: ${details.exception?.description ?? details.text}`,
      );
    }
    return result.result.value as T;
  }

  /** Polls `expression` in a frame until it is truthy (5 s at most), returning that value. */
  async waitFor<T>(expression: string, where: "host" | "view" = "view", ms = 5000): Promise<T> {
    const deadline = Date.now() + ms;
    let last: unknown;
    while (Date.now() < deadline) {
      try {
        const value = await this.evaluate<T>(expression, where);
        if (value) return value;
        last = value;
      } catch (error) {
        last = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`timed out waiting in the ${where} for ${expression} (last: ${String(last)})`);
  }

  /** A PNG of the viewport, or of `clip` (CSS pixels, past the viewport if need be) when given. */
  async screenshot(clip?: { x: number; y: number; width: number; height: number }) {
    const { data } = await this.#cdp.send("Page.captureScreenshot", {
      format: "png",
      ...(clip ? { clip: { ...clip, scale: 1 }, captureBeyondViewport: true } : {}),
    }, this.#sessionId) as { data: string };
    return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  }

  /** Stops listening (the browser closing ends the sessions themselves). */
  dispose(): void {
    for (const stop of this.#stops) stop();
    this.#stops.length = 0;
  }

  /** Resolves once the view frame has a script context. */
  async #viewFrame(): Promise<FrameContext> {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const views = [...this.#frames].filter(([id]) => id !== this.#mainFrame);
      if (views.length > 1) throw new Error(`the tab holds ${views.length} frames, not one view`);
      if (views[0]) return views[0][1];
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 100);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#changed.add(done);
      });
    }
    throw new Error("the view's frame never started a script");
  }

  /** Enables the recorders in one session (the page, or a frame attached as a child target). */
  async #prepare(sessionId: string, waiting: boolean): Promise<void> {
    const send = (method: string, params: Record<string, unknown> = {}) =>
      this.#cdp.send(method, params, sessionId);
    await send("Network.enable");
    await send("Runtime.enable");
    await send("Log.enable");
    await send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
    });
    if (waiting) await send("Runtime.runIfWaitingForDebugger");
  }

  #mine(event: CdpEvent): boolean {
    return event.sessionId !== undefined && this.#sessions.has(event.sessionId);
  }

  #on(method: string, handler: (event: CdpEvent) => void): void {
    this.#stops.push(this.#cdp.on(method, (event) => {
      if (this.#mine(event)) handler(event);
    }));
  }

  #listen(): void {
    this.#on("Target.attachedToTarget", (event) => {
      const child = event.params.sessionId as string;
      this.#sessions.add(child);
      this.#prepare(child, event.params.waitingForDebugger === true).catch(() => {
        // The frame went away while being prepared: nothing left to record.
      });
    });
    this.#on("Runtime.executionContextCreated", (event) => {
      const context = event.params.context as {
        id: number;
        auxData?: { isDefault?: boolean; frameId?: string };
      };
      if (!context.auxData?.isDefault || !context.auxData.frameId) return;
      this.#frames.set(context.auxData.frameId, {
        sessionId: event.sessionId!,
        contextId: context.id,
      });
      for (const changed of this.#changed) changed();
      this.#changed.clear();
    });
    this.#on("Runtime.executionContextDestroyed", (event) => {
      const id = event.params.executionContextId as number;
      for (const [frame, context] of this.#frames) {
        if (context.sessionId === event.sessionId && context.contextId === id) {
          this.#frames.delete(frame);
        }
      }
    });
    this.#on("Runtime.executionContextsCleared", (event) => {
      for (const [frame, context] of this.#frames) {
        if (context.sessionId === event.sessionId) this.#frames.delete(frame);
      }
    });
    this.#on("Network.requestWillBeSent", (event) => {
      const request = event.params.request as { url: string };
      this.requests.push({
        url: request.url,
        type: String(event.params.type ?? "Other"),
        frameId: String(event.params.frameId ?? ""),
      });
    });
    this.#on("Network.loadingFailed", (event) => {
      if (!event.params.blockedReason) return;
      this.log.push({
        kind: "log",
        level: "error",
        text: `blocked (${event.params.blockedReason}): request ${event.params.requestId}`,
      });
    });
    this.#on("Log.entryAdded", (event) => {
      const entry = event.params.entry as { level: string; text: string; url?: string };
      this.log.push({ kind: "log", level: entry.level, text: `${entry.text} ${entry.url ?? ""}` });
    });
    this.#on("Runtime.consoleAPICalled", (event) => {
      const args = event.params.args as { value?: unknown; description?: string }[];
      this.log.push({
        kind: "console",
        level: String(event.params.type),
        text: args.map((a) => a.description ?? String(a.value)).join(" "),
      });
    });
    this.#on("Runtime.exceptionThrown", (event) => {
      const details = event.params.exceptionDetails as {
        text: string;
        exception?: { description?: string };
      };
      this.log.push({
        kind: "exception",
        level: "error",
        text: details.exception?.description ?? details.text,
      });
    });
    this.#on("Runtime.bindingCalled", (event) => {
      const name = event.params.name as string;
      const payload = event.params.payload as string;
      const handler = this.#bindings.get(name);
      if (handler) handler(payload);
      else this.#early.set(name, [...this.#early.get(name) ?? [], payload]);
    });
  }
}
