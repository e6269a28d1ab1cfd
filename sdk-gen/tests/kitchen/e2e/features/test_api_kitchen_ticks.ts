/**
 * GET /kitchen/ticks
 *
 * Ticks `count` events named `tick`, after the last one the client saw
 * (`Last-Event-ID`), then ends.
 *
 * Calls the route with random valid input and checks the answer: a success
 * against its type, a documented error against the error body. Random
 * input often meets a documented error (an id nobody made is a 404): make
 * it real (create what the route reads first) to test more.
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import type { IConnection } from "../../typescript/src/index.js";
import { EventStream, random } from "../../typescript/src/runtime.js";
import { ticks as route } from "../../typescript/src/functional/kitchen/index.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "GET /kitchen/ticks";

export async function test_api_kitchen_ticks(connection: IConnection): Promise<number> {
  const answer = await route.propagate(
    connection,
    random(route.METADATA.query, 0) as route.Query,
  );
  // The stream is opened, checked and closed: its events come when
  // something happens, which this test does not cause. Cause some, then
  // read them with `for await (const event of answer.data)`.
  try {
    return verify(route.METADATA, answer);
  } finally {
    if (answer.data instanceof EventStream) await answer.data.close();
  }
}
