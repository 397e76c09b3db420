/**
 * Maven-style `${name}` interpolation. Unknown names stay as written (Maven leaves them too),
 * and a property that refers to itself, directly or through others, stops after a few rounds
 * instead of looping.
 */
const reference = /\$\{([^${}]+)\}/g;
const maxDepth = 8;

export type PropertyLookup = (name: string) => string | undefined;

export function interpolate(value: string, lookup: PropertyLookup): string {
  let current = value;
  for (let depth = 0; depth < maxDepth && current.includes('${'); depth++) {
    let changed = false;
    const next = current.replace(reference, (whole, name: string) => {
      const v = lookup(name.trim());
      if (v === undefined) return whole;
      changed = true;
      return v;
    });
    if (!changed || next === current) break;
    current = next;
  }
  return current;
}

/** True when the value still holds a `${...}` reference after interpolation. */
export function hasUnresolved(value: string): boolean {
  return /\$\{[^${}]*\}/.test(value);
}

/** The names of `${env.NAME}` references in a value. */
export function envReferences(value: string): string[] {
  const names: string[] = [];
  for (const m of value.matchAll(/\$\{env\.([^${}]+)\}/g)) names.push(m[1]!);
  return names;
}
