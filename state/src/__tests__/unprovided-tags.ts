// The check behind "a mutation may only name a tag some query provides" (cache-tags.ts). Kept with
// the tests: the kit's index is shared at runtime and never tree-shaken, so anything it exported
// would ship to every visitor.

interface EndpointLike {
  type?: unknown;
  providesTags?: unknown;
  invalidatesTags?: unknown;
}

/**
 * Stands in for any argument or result when the tag callbacks are evaluated: every property is
 * another sample, it iterates as empty, calls return an empty list, and it converts to 1 or to
 * ENTITY (so `res.modifiedCount > 0` holds and `{ id: arg }` reads as an entity id).
 */
const ENTITY = '<entity>';
function sample(): unknown {
  const target = () => [];
  return new Proxy(target, {
    get(_t, key) {
      if (key === Symbol.toPrimitive) return (hint: string) => (hint === 'number' ? 1 : ENTITY);
      if (key === Symbol.iterator) return function* () {};
      if (key === 'then') return undefined;
      return sample();
    },
    apply: () => [],
  });
}

function tagsOf(spec: unknown): string[] {
  const list: unknown =
    typeof spec === 'function' ? (spec as (...a: unknown[]) => unknown)(sample(), undefined, sample()) : spec;
  if (!Array.isArray(list)) return [];
  return list.map((tag: unknown) => {
    if (typeof tag === 'string') return `${tag}:*`;
    const { type, id } = tag as { type: string; id?: unknown };
    if (id === undefined) return `${type}:*`;
    // Ids computed from the arguments or the result are entities (a part id, an order id, an
    // email); an id spelled in the code is a list name, which must match a provided one exactly.
    return typeof id === 'string' || typeof id === 'number' ? `${type}:${String(id)}` : `${type}:${ENTITY}`;
  });
}

/**
 * Every tag some mutation of `api` invalidates that no query of `api` provides, as
 * `endpoint → Type:id`. Such an invalidation refreshes nothing: the screen it meant to refresh
 * keeps showing old data. `api` is a createApi result after every remote injected its endpoints.
 */
export function unprovidedTags(api: {
  endpoints: Record<string, unknown>;
  enhanceEndpoints: (o: { endpoints: Record<string, (d: EndpointLike) => void> }) => unknown;
}): string[] {
  const definitions = new Map<string, EndpointLike>();
  // enhanceEndpoints hands each definition to a callback: the one public way to read them.
  api.enhanceEndpoints({
    endpoints: Object.fromEntries(
      Object.keys(api.endpoints).map((name) => [name, (d: EndpointLike) => void definitions.set(name, d)]),
    ),
  });
  const provided = new Set<string>();
  for (const d of definitions.values()) for (const t of tagsOf(d.providesTags)) provided.add(t);
  const wholeTypes = new Set([...provided].filter((t) => t.endsWith(':*')).map((t) => t.split(':')[0]));
  const missing: string[] = [];
  for (const [name, d] of definitions) {
    for (const t of tagsOf(d.invalidatesTags)) {
      const [type] = t.split(':');
      const typeProvided = [...provided].some((p) => p.startsWith(`${type}:`));
      // Invalidating a whole type needs some query of that type; a specific tag needs that tag.
      const ok = t.endsWith(':*') ? typeProvided : provided.has(t) || wholeTypes.has(type ?? '');
      if (!ok) missing.push(`${name} → ${t}`);
    }
  }
  return missing;
}
