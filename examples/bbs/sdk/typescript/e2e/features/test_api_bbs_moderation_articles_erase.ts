/**
 * DELETE /bbs/moderation/articles/:section/:id
 *
 * Erase an article and its history as a moderator, without the writer's
 * password.
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
import { erase as route } from "../../src/functional/bbs/moderation/articles/index.js";
import { drawParam } from "../draw.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "DELETE /bbs/moderation/articles/:section/:id";

export async function test_api_bbs_moderation_articles_erase(connection: IConnection): Promise<number> {
  const answer = await route.propagate(
    connection,
    drawParam(route.METADATA.params[0].schema) as string,
    drawParam(route.METADATA.params[1].schema) as string,
  );
  return verify(route.METADATA, answer);
}
