import type { Operation, Tag } from "./model";

/** words are the lower-cased words of a query; an operation matches when it has them all. */
export function words(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

function haystack(op: Operation): string {
  return [op.method, op.path, op.id, op.summary, op.tag, op.description, ...op.marks].join(" ").toLowerCase();
}

/** matches says whether an operation has every word of the query in its method, path,
 * operationId, summary, tag, description or marks. */
export function matches(op: Operation, query: string[]): boolean {
  if (query.length === 0) return true;
  const text = haystack(op);
  return query.every((w) => text.includes(w));
}

/** filterTags keeps the operations that match, and the tags that keep any. */
export function filterTags(tags: Tag[], query: string): Tag[] {
  const q = words(query);
  return tags.map((tag) => ({ ...tag, operations: tag.operations.filter((op) => matches(op, q)) })).filter((tag) => tag.operations.length > 0);
}
