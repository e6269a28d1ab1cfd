/**
{%- for line in doc %}
{%- if line.is_empty() %}
 *
{%- else %}
 * {{ line }}
{%- endif %}
{%- endfor %}
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import type { IConnection } from "{{ sdk }}/index.js";
{%- if !runtime.is_empty() %}
import { {{ runtime|join(", ") }} } from "{{ sdk }}/runtime.js";
{%- endif %}
{%- if skip.is_none() %}
import { {{ function }} as route } from "{{ module }}";
{%- endif %}
{%- if uses_param && uses_bytes %}
import { drawBytes, drawParam } from "../draw.js";
{%- else if uses_param %}
import { drawParam } from "../draw.js";
{%- else if uses_bytes %}
import { drawBytes } from "../draw.js";
{%- endif %}
{%- if skip.is_none() %}
import { verify } from "../verify.js";
{%- endif %}

/** The route this file tests. */
export const ROUTE = {{ route }};
{%- if let Some(skip) = skip %}

/** Why it has no generated test: shown by the test runner. */
export const SKIP = {{ skip_json }};

export async function {{ name }}(_connection: IConnection): Promise<number> {
  throw new Error(SKIP);
}
{%- else if events %}

export async function {{ name }}(connection: IConnection): Promise<number> {
{%- if args.is_empty() %}
  const answer = await route.propagate(connection);
{%- else %}
  const answer = await route.propagate(
    connection,
{%- for arg in args %}
    {{ arg }},
{%- endfor %}
  );
{%- endif %}
  // The stream is opened, checked and closed: its events come when
  // something happens, which this test does not cause. Cause some, then
  // read them with `for await (const event of answer.data)`.
  try {
    return verify(route.METADATA, answer);
  } finally {
    if (answer.data instanceof EventStream) await answer.data.close();
  }
}
{%- else %}

export async function {{ name }}(connection: IConnection): Promise<number> {
{%- if args.is_empty() %}
  const answer = await route.propagate(connection);
{%- else %}
  const answer = await route.propagate(
    connection,
{%- for arg in args %}
    {{ arg }},
{%- endfor %}
  );
{%- endif %}
  return verify(route.METADATA, answer);
}
{%- endif %}
