{{ doc }}export namespace {{ name }} {
  import $route = {{ route }};
{%- if let Some(event) = event %}
  /** The data of one event. */
  export type Event = {{ event }};
{%- endif %}
{%- if keyed %}
  /** The inputs by name: the last element of the route's query keys{% if mutation %}, the variables of its mutation{% endif %}. */
  export type Inputs = {{ inputs_type }};
  /** The prefix of the keys of this route's queries. */
  export const $key = [{{ key }}] as const;
  /** The key of a query of this route. */
  export type Key = readonly [{{ key }}, Inputs];

  /** The key of this route's {% if event.is_some() %}latest event{% else %}query{% endif %} with these inputs. */
  export function queryKey({{ signature }}): DataTag<Key, {{ data }}> {
    return [...$key, {{ inputs }}] as Key as DataTag<Key, {{ data }}>;
  }
{%- else %}
  /** The inputs by name: the variables of its mutation. */
  export type Inputs = {{ inputs_type }};
  /** The key of its mutations. */
  export const $key = [{{ key }}] as const;
{%- endif %}
{%- if query %}

  /** Fetches this route with these inputs, under `queryKey(...)`. */
  export function queryOptions(
    connection: $runtime.IConnection,
{%- for param in params %}
    {{ param }},
{%- endfor %}
  ): RouteQueryOptions<$route.Output, Key> {
    return {
      queryKey: queryKey({{ args }}),
      queryFn: ({ signal }) => $route($signalled(connection, signal){{ call_args }}),
    };
  }
{%- endif %}
{%- if let Some(paging) = paging %}

  /** The inputs of the infinite query: all but the page. */
  export type InfiniteInputs = {{ paging.inputs_type }};
  /** The key of an infinite query of this route. */
  export type InfiniteKey = readonly [{{ key }}, InfiniteInputs, "infinite"];

  /** The key of this route's infinite query with these inputs. */
  export function infiniteQueryKey({{ paging.signature }}): DataTag<InfiniteKey, InfiniteData<$route.Output, number>> {
    return [...$key, {{ inputs }}, "infinite"] as InfiniteKey as DataTag<InfiniteKey, InfiniteData<$route.Output, number>>;
  }

  /** Fetches this route a page at a time (`{{ paging.field }}`), under `infiniteQueryKey(...)`. */
  export function infiniteQueryOptions(
    connection: $runtime.IConnection,
{%- for param in paging.params %}
    {{ param }},
{%- endfor %}
  ): RouteInfiniteQueryOptions<$route.Output, InfiniteKey> {
    return {
      queryKey: infiniteQueryKey({{ args }}),
      queryFn: ({ signal, pageParam }) => $route($signalled(connection, signal){{ paging.call_args }}),
      initialPageParam: {{ paging.first }},
      getNextPageParam: (last) => $nextPage(last.pagination, {{ paging.first }}),
      getPreviousPageParam: (first) => $previousPage(first.pagination, {{ paging.first }}),
    };
  }
{%- endif %}
{%- if mutation %}

  /** Calls this route with the inputs by name. */
  export function mutationOptions(connection: $runtime.IConnection): RouteMutationOptions<$route.Output, {% if params.is_empty() %}void{% else %}Inputs{% endif %}> {
    return {
      mutationKey: $key,
      mutationFn: ({% if !params.is_empty() %}{{ inputs }}{% endif %}) => $route(connection{{ call_args }}),
    };
  }
{%- endif %}
{%- if event.is_some() %}

  /**
   * Follows this route's events across disconnections: each event's data
   * goes in the cache under `queryKey(...)`, then to `options.onEvent`.
   */
  export function subscribe(
    client: QueryClient,
    connection: $runtime.IConnection,
{%- for param in params %}
    {{ param }},
{%- endfor %}
    options: SubscribeOptions<Event> = {},
  ): Subscription {
    return $subscribe(client, connection, queryKey({{ args }}), (opened) => $route(opened{{ call_args }}), options);
  }
{%- endif %}
}
