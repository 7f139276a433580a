/**
 * A toy embedding for tests of hybrid ranking: each listed word adds 1 along its concept's
 * axis, so texts that share no word but share a concept ("umbrella" and "forecast") point the
 * same way. Every vector also has 0.01 on one extra axis, so no text gets the zero vector.
 * Words are the text's runs of ASCII letters, lowercased.
 */
export function conceptVectors(concepts: Readonly<Record<string, number>>): (text: string) => number[] {
  const axes = Math.max(-1, ...Object.values(concepts)) + 1;
  return (text) => {
    const vector = new Array<number>(axes + 1).fill(0);
    vector[axes] = 0.01;
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const axis = Object.hasOwn(concepts, word) ? concepts[word] : undefined;
      if (axis !== undefined) vector[axis]! += 1;
    }
    return vector;
  };
}
