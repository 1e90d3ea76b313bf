import { ALL_ROUTES } from "../cases/mod.ts";
import { type FixtureBitbucket, type Route, startFixtureBitbucket } from "./fixture_bitbucket.ts";

/** A fixture Bitbucket with `routes` tried before the shared ones, closed on `await using` disposal. */
export function fixtureWith(routes: Route[] = []): FixtureBitbucket & AsyncDisposable {
  const fixture = startFixtureBitbucket([...routes, ...ALL_ROUTES]);
  return Object.assign(fixture, { [Symbol.asyncDispose]: () => fixture.close() });
}
