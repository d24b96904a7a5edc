/** Counts the words in every string found in a value (content objects, lists, nested data). */
export function countWords(value: unknown): number {
  if (typeof value === 'string') {
    return value.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  }
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countWords(v), 0);
  if (value && typeof value === 'object') {
    return Object.entries(value).reduce(
      (n, [key, v]) => (key === 'to' || key === 'href' || key === 'id' ? n : n + countWords(v)),
      0,
    );
  }
  return 0;
}
