/**
 * Instances kept for the life of the process, one per class whose methods run hot while a
 * catalog is built.
 *
 * V8's optimised code for a method checks the hidden class (the "map") of the objects it reads,
 * and holds that map only weakly. When a full garbage collection finds no instance of a class
 * left (the previous catalog's builder is gone), the map is collected and every piece of code
 * that depended on it is thrown away, so the next build ran unoptimised until V8 compiled the
 * same code again: measured in `pnpm bench`, which collects before each timed build, that was
 * about half of a 1,000-tool build. An instance kept alive keeps the map, and the code with it.
 * A server that builds catalogs per request meets the same collections between its requests.
 */
const kept: object[] = [];

/** Keeps `instance` (a small, unused one) alive, and with it its class's map; returns it. */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
