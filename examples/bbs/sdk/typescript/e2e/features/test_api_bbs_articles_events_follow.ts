/**
 * GET /bbs/articles/:section/events
 *
 * Follow a section live: an event when one of its articles is posted,
 * updated or erased.
 *
 * Calls the route with random valid input and checks the answer: a success
 * against its type, a documented error against the error body. Random
 * input often meets a documented error (an id nobody made is a 404): make
 * it real (create what the route reads first) to test more.
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import type { IConnection } from "../../src/index.js";
import { EventStream, random } from "../../src/runtime.js";
import { follow as route } from "../../src/functional/bbs/articles/events/index.js";
import { drawParam } from "../draw.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "GET /bbs/articles/:section/events";

export async function test_api_bbs_articles_events_follow(connection: IConnection): Promise<number> {
  const answer = await route.propagate(
    connection,
    drawParam(route.METADATA.params[0].schema) as string,
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
