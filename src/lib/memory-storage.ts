/**
 * An in-memory `Storage`, for unit tests under Node (which has no `localStorage`) and as a
 * stand-in where the browser refuses storage access (some private modes throw on access).
 */
export class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>();

  [name: string]: unknown;

  get length(): number {
    return this.#items.size;
  }

  clear(): void {
    this.#items.clear();
  }

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }

  removeItem(key: string): void {
    this.#items.delete(key);
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }
}
