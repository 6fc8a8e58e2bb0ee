/**
 * Unique names the way the glTF reader makes them: a name already taken gets `-2`, `-3`… appended, the first
 * free one. Each base remembers where its search stopped (names are only ever added, so the smaller
 * suffixes stay taken), which keeps thousands of equal names linear rather than quadratic.
 */
export class UniqueNames {
  private readonly used = new Set<string>();
  private readonly next = new Map<string, number>();

  /** `base`, else `base-k` for the smallest free k ≥ 2; the name returned is taken from now on. */
  take(base: string): string {
    let name = base;
    let k = this.next.get(base) ?? 2;
    while (this.used.has(name)) name = `${base}-${k++}`;
    if (name !== base) this.next.set(base, k);
    this.used.add(name);
    return name;
  }
}
