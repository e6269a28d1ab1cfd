/**
 * POST /api/accounts/login
 *
 * Signs in as the name it was sent; named by its `operation_id`.
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
import { random } from "../../typescript/src/runtime.js";
import { signIn as route } from "../../typescript/src/functional/accounts/index.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "POST /api/accounts/login";

export async function test_api_accounts_signIn(connection: IConnection): Promise<number> {
  const answer = await route.propagate(
    connection,
    random(route.METADATA.body, 0) as route.Input,
  );
  return verify(route.METADATA, answer);
}
