/**
 * Where the end-to-end and load tests send their requests, and with which
 * credentials: `E2E_HOST` (`http://127.0.0.1:3000` when unset) and the
 * variables of `CREDENTIALS`. A route whose credential is not set is skipped,
 * saying which is missing.
 *
 * Written once by `sdk-gen e2e`; yours to edit (log in first, read a
 * secret store ...): it is never overwritten without `--force`.
 * @module
 */
import type { Credentials, IConnection } from "../typescript/src/index.js";

/** The environment variable of each credential, by security scheme. */
const CREDENTIALS = {
  "moderator": "E2E_MODERATOR",
  "reader": "E2E_READER",
} as const;

/** The connection every test uses. */
export function connection(): IConnection {
  const security: Credentials = {};
  for (const [scheme, variable] of Object.entries(CREDENTIALS)) {
    const credential = process.env[variable];
    if (credential !== undefined) security[scheme as keyof Credentials] = credential;
  }
  return { host: process.env["E2E_HOST"] ?? "http://127.0.0.1:3000", security };
}
