/** Web Storage as a browser has it: strings only, and a quota (in UTF-16 code units, keys included). */
export class FakeStorage implements Storage {
  readonly #items = new Map<string, string>();
  constructor(readonly quota = 5_000_000) {}
  get length(): number {
    return this.#items.size;
  }
  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    let used = key.length + String(value).length;
    for (const [name, text] of this.#items) if (name !== key) used += name.length + text.length;
    if (used > this.quota) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    this.#items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
  clear(): void {
    this.#items.clear();
  }
  keys(): string[] {
    return [...this.#items.keys()];
  }
}
