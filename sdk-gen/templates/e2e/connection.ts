/**
 * Where the end-to-end and load tests send their requests, and with which
 * credentials: `E2E_HOST` (`http://127.0.0.1:3000` when unset)
{%- if !schemes.is_empty() %} and the
 * variables of `CREDENTIALS`{% endif %}.
{%- if !schemes.is_empty() %} A route whose credential is not set is skipped,
 * saying which is missing.
{%- endif %}
 *
 * Written once by `sdk-gen e2e`; yours to edit (log in first, read a
 * secret store ...): it is never overwritten without `--force`.
 * @module
 */
import type { {% if !schemes.is_empty() %}Credentials, {% endif %}IConnection } from "{{ sdk }}/index.js";
{%- if !schemes.is_empty() %}

/** The environment variable of each credential, by security scheme. */
const CREDENTIALS = {
{%- for scheme in schemes %}
  {{ scheme.key }}: "{{ scheme.var }}",
{%- endfor %}
} as const;
{%- endif %}

/** The connection every test uses. */
export function connection(): IConnection {
{%- if schemes.is_empty() %}
  return { host: process.env["E2E_HOST"] ?? "http://127.0.0.1:3000" };
{%- else %}
  const security: Credentials = {};
  for (const [scheme, variable] of Object.entries(CREDENTIALS)) {
    const credential = process.env[variable];
    if (credential !== undefined) security[scheme as keyof Credentials] = credential;
  }
  return { host: process.env["E2E_HOST"] ?? "http://127.0.0.1:3000", security };
{%- endif %}
}
