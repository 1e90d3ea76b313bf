import {
  type FixtureBitbucket,
  type Route,
  startFixtureBitbucket,
} from "../../testing/fixture_bitbucket.ts";

/** A fixture Bitbucket holding exactly `routes`, closed on `await using` disposal. */
export function fixtureWith(routes: Route[]): FixtureBitbucket & AsyncDisposable {
  const fixture = startFixtureBitbucket(routes);
  return Object.assign(fixture, { [Symbol.asyncDispose]: () => fixture.close() });
}
