/** Word lists and name spaces the generators draw from. */

/** Adjectives for key-value resolution (appendix A); at least 32, the largest vocabulary. */
export const ADJECTIVES = [
  "amber",
  "ancient",
  "bitter",
  "bold",
  "brave",
  "brisk",
  "calm",
  "clever",
  "crimson",
  "curious",
  "dusty",
  "eager",
  "faint",
  "fierce",
  "gentle",
  "gilded",
  "golden",
  "hollow",
  "humble",
  "icy",
  "jolly",
  "keen",
  "lively",
  "lofty",
  "lucky",
  "misty",
  "noble",
  "pale",
  "proud",
  "quiet",
  "rapid",
  "rusty",
  "silent",
  "silver",
  "sleepy",
  "smooth",
  "solemn",
  "swift",
  "tender",
  "vivid",
] as const;

/** Nouns for key-value resolution; at least 32. */
export const NOUNS = [
  "anchor",
  "badger",
  "beacon",
  "bridge",
  "candle",
  "canyon",
  "castle",
  "comet",
  "falcon",
  "forest",
  "garden",
  "glacier",
  "harbor",
  "hammer",
  "island",
  "lantern",
  "meadow",
  "mirror",
  "orchard",
  "otter",
  "pebble",
  "pepper",
  "pillow",
  "quarry",
  "raven",
  "river",
  "saddle",
  "signal",
  "spindle",
  "summit",
  "thistle",
  "tower",
  "tunnel",
  "valley",
  "velvet",
  "violin",
  "walrus",
  "willow",
  "window",
  "zephyr",
] as const;

const CONSONANTS = "bdfgklmnprstvz";
const VOWELS = "aeiou";

/**
 * The `index`-th pronounceable variable name (consonant-vowel-consonant-vowel, 4,900 of them),
 * so lookup keys cost few tokens and never collide with one another.
 */
export function variableName(index: number): string {
  const c = CONSONANTS.length;
  const v = VOWELS.length;
  let i = index;
  const v2 = VOWELS[i % v];
  i = Math.floor(i / v);
  const c2 = CONSONANTS[i % c];
  i = Math.floor(i / c);
  const v1 = VOWELS[i % v];
  i = Math.floor(i / v);
  const c1 = CONSONANTS[i % c];
  return `${c1}${v1}${c2}${v2}`;
}

/** How many distinct variable names exist. */
export const VARIABLE_NAME_COUNT = CONSONANTS.length ** 2 * VOWELS.length ** 2;
