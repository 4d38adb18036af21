/**
 * The EP-100 index (Embodied Playground Table 20) with each task's type, split, EP-20
 * membership and environment identifier; the launcher tiers of Table 9; and the workload
 * scores of Table 18 for the suites implemented here.
 */

/** The five EP-100 suites. */
export const SUITES = ["Launch", "Tower", "Lock", "Cube", "Home"] as const;
export type EpSuite = (typeof SUITES)[number];

/** One row of Table 20. */
export interface CatalogEntry {
  /** e.g. "Launch-02". */
  index: string;
  suite: EpSuite;
  type: string;
  title: string;
  split: "Easy" | "Hard";
  ep20: boolean;
  /** The paper's environment identifier (family/embodiment/case). */
  envId: string;
  /** The native case id (e.g. "A007", "H04"). */
  caseId: string;
}

type Row = [string, string, string, "Easy" | "Hard", boolean, string];

// Table 20, verbatim.
const ROWS: Row[] = [
  ["Launch-01", "Aim", "Two-range ammunition planning", "Hard", false, "marble/dual-panda/A001"],
  ["Launch-02", "Aim", "Single-target warm-up", "Easy", true, "marble/dual-panda/A007"],
  ["Launch-03", "Aim", "Long-range energy budget", "Easy", false, "marble/dual-panda/A008"],
  ["Launch-04", "Aim", "Elevated-platform shot", "Easy", false, "marble/dual-panda/A009"],
  ["Launch-05", "Aim", "Toppling timber gate", "Easy", false, "marble/dual-panda/A010"],
  ["Launch-06", "Aim", "Three-target fan", "Hard", false, "marble/dual-panda/A075"],
  ["Launch-07", "Aim", "Left-low and right-high fork", "Hard", false, "marble/dual-panda/A031"],
  ["Launch-08", "Causal", "Orchard rolling bodies", "Easy", true, "marble/dual-panda/A017"],
  ["Launch-09", "Causal", "One beam, two targets", "Easy", false, "marble/dual-panda/A004"],
  ["Launch-10", "Causal", "Light roof on three supports", "Easy", false, "marble/dual-panda/A039"],
  [
    "Launch-11",
    "Causal",
    "Gravity-driven stone at a low fort",
    "Easy",
    false,
    "marble/dual-panda/A044",
  ],
  [
    "Launch-12",
    "Causal",
    "Whole arch and separate crown stone",
    "Easy",
    false,
    "marble/dual-panda/A071",
  ],
  ["Launch-13", "Causal", "Branching dominoes", "Hard", false, "marble/dual-panda/A006"],
  [
    "Launch-14",
    "Causal",
    "Indirect clearance with two bridges",
    "Hard",
    false,
    "marble/dual-panda/A015",
  ],
  [
    "Launch-15",
    "Causal",
    "Breakable window in a fixed frame",
    "Easy",
    false,
    "marble/dual-panda/A029",
  ],
  ["Launch-16", "Causal", "Staggered twin towers", "Hard", false, "marble/dual-panda/A034"],
  ["Launch-17", "Causal", "Two-ball relay", "Hard", false, "marble/dual-panda/A055"],
  ["Launch-18", "Causal", "Upper-to-lower beam transfer", "Hard", false, "marble/dual-panda/A063"],
  [
    "Launch-19",
    "Causal",
    "Movable flap at a narrow throat",
    "Hard",
    true,
    "marble/dual-panda/A072",
  ],
  ["Launch-20", "Causal", "Near target before collapse", "Hard", false, "marble/dual-panda/A073"],
  ["Launch-21", "Glass", "Rigid glass village", "Easy", false, "marble/dual-panda/A018"],
  ["Launch-22", "Glass", "Two glass layers", "Easy", true, "marble/dual-panda/A025"],
  ["Launch-23", "Glass", "Low lintel, high target", "Easy", false, "marble/dual-panda/A064"],
  ["Launch-24", "Glass", "One-shot glass breach", "Hard", false, "marble/dual-panda/A027"],
  ["Launch-25", "Glass", "Glass-supported lower story", "Hard", false, "marble/dual-panda/A035"],
  ["Launch-26", "Rules", "Far target before near target", "Easy", false, "marble/dual-panda/A026"],
  ["Launch-27", "Rules", "Protect the garden neighbor", "Easy", false, "marble/dual-panda/A028"],
  [
    "Launch-28",
    "Rules",
    "Fire again with damage retained",
    "Easy",
    false,
    "marble/dual-panda/A030",
  ],
  [
    "Launch-29",
    "Rules",
    "Attic target above a protected floor",
    "Hard",
    false,
    "marble/dual-panda/A036",
  ],
  ["Launch-30", "Rules", "Keep the lower chamber safe", "Hard", false, "marble/dual-panda/A047"],
  ["Launch-31", "Rules", "Fragment-risk well", "Hard", true, "marble/dual-panda/A068"],
  ["Launch-32", "Rules", "Numbered fan courtyard", "Easy", false, "marble/dual-panda/A091"],
  ["Launch-33", "Rules", "Upper floor before lower floor", "Hard", false, "marble/dual-panda/A092"],
  ["Launch-34", "Rules", "Material-ordered courtyard", "Hard", true, "marble/dual-panda/A093"],
  ["Tower-01", "Plan", "Top-ring transfer", "Easy", false, "hanoi_panda/panda/H01"],
  ["Tower-02", "Plan", "Local two-ring transfer", "Easy", false, "hanoi_panda/panda/H02"],
  ["Tower-03", "Plan", "Reassemble a distributed state", "Easy", false, "hanoi_panda/panda/H03"],
  ["Tower-04", "Plan", "Long five-ring rearrangement", "Hard", true, "hanoi_panda/panda/H04"],
  ["Tower-05", "Plan", "Long combined challenge", "Hard", false, "hanoi_panda/panda/H40"],
  ["Tower-06", "Physics", "Triangular transfer", "Easy", true, "hanoi_panda/panda/H06"],
  ["Tower-07", "Physics", "Low-to-high platform", "Easy", false, "hanoi_panda/panda/H09"],
  ["Tower-08", "Physics", "Medium-hole replacement", "Hard", false, "hanoi_panda/panda/H14"],
  ["Tower-09", "Physics", "Light-ring lift", "Easy", false, "hanoi_panda/panda/H17"],
  ["Tower-10", "Physics", "Standard-friction transfer", "Hard", false, "hanoi_panda/panda/H22"],
  ["Tower-11", "Physics", "Single tilted handle", "Easy", false, "hanoi_panda/panda/H25"],
  ["Tower-12", "Physics", "Long and short peg pair", "Hard", false, "hanoi_panda/panda/H34"],
  ["Tower-13", "Physics", "Offset vertical barrier", "Hard", false, "hanoi_panda/panda/H31"],
  ["Tower-14", "Dex", "Top-ring transfer", "Easy", false, "hanoi_floating/floating-sharpa/H01"],
  [
    "Tower-15",
    "Dex",
    "Local two-ring transfer",
    "Hard",
    true,
    "hanoi_floating/floating-sharpa/H02",
  ],
  ["Tower-16", "Dex", "Low-to-high platform", "Hard", false, "hanoi_floating/floating-sharpa/H09"],
  ["Tower-17", "Dex", "Single tilted handle", "Hard", false, "hanoi_floating/floating-sharpa/H25"],
  ["Tower-18", "Dex", "Top-ring transfer", "Easy", true, "hanoi_sharpa/fr3-sharpa/H01"],
  ["Tower-19", "Dex", "Local two-ring transfer", "Hard", false, "hanoi_sharpa/fr3-sharpa/H02"],
  ["Tower-20", "Dex", "Low-to-high platform", "Easy", false, "hanoi_sharpa/fr3-sharpa/H09"],
  ["Tower-21", "Dex", "Single tilted handle", "Easy", false, "hanoi_sharpa/fr3-sharpa/H25"],
  ["Lock-01", "Assemble", "Assemble full lock", "Hard", false, "kongming_lock/dual-panda/A01"],
  ["Lock-02", "Assemble", "Assemble key", "Easy", false, "kongming_lock/dual-panda/A06"],
  ["Lock-03", "Assemble", "Assemble key + bar", "Easy", true, "kongming_lock/dual-panda/A11"],
  ["Lock-04", "Assemble", "Assemble full lock", "Hard", false, "kongming_lock/dual-panda/A04"],
  ["Lock-05", "Assemble", "Assemble key", "Easy", false, "kongming_lock/dual-panda/A09"],
  ["Lock-06", "Assemble", "Assemble key + bar", "Hard", false, "kongming_lock/dual-panda/A14"],
  ["Lock-07", "Disassemble", "Disassemble full lock", "Hard", true, "kongming_lock/dual-panda/D01"],
  ["Lock-08", "Disassemble", "Disassemble key", "Easy", false, "kongming_lock/dual-panda/D06"],
  [
    "Lock-09",
    "Disassemble",
    "Disassemble key + bar",
    "Easy",
    false,
    "kongming_lock/dual-panda/D11",
  ],
  [
    "Lock-10",
    "Disassemble",
    "Disassemble full lock",
    "Hard",
    false,
    "kongming_lock/dual-panda/D04",
  ],
  ["Lock-11", "Disassemble", "Disassemble key", "Easy", false, "kongming_lock/dual-panda/D09"],
  [
    "Lock-12",
    "Disassemble",
    "Disassemble key + bar",
    "Hard",
    false,
    "kongming_lock/dual-panda/D14",
  ],
  ["Lock-13", "Dex", "Assemble full lock", "Hard", false, "kongming_lock/dual-floating-sharpa/A01"],
  ["Lock-14", "Dex", "Assemble key", "Easy", true, "kongming_lock/dual-floating-sharpa/A06"],
  [
    "Lock-15",
    "Dex",
    "Disassemble full lock",
    "Hard",
    false,
    "kongming_lock/dual-floating-sharpa/D01",
  ],
  ["Lock-16", "Dex", "Disassemble key", "Easy", false, "kongming_lock/dual-floating-sharpa/D06"],
  ["Cube-01", "Rubik", "Solve scramble C01", "Easy", false, "rubiks_panda/panda/C01"],
  ["Cube-02", "Rubik", "Solve scramble C02", "Easy", false, "rubiks_panda/panda/C02"],
  ["Cube-03", "Rubik", "Solve scramble C03", "Easy", false, "rubiks_panda/panda/C03"],
  ["Cube-04", "Rubik", "Solve scramble C01", "Easy", false, "rubiks_sharpa/floating-sharpa/C01"],
  ["Cube-05", "Rubik", "Solve scramble C02", "Hard", false, "rubiks_sharpa/floating-sharpa/C02"],
  ["Cube-06", "Rubik", "Solve scramble C11", "Hard", true, "rubiks_panda/panda/C11"],
  ["Cube-07", "Rubik", "Solve scramble C12", "Hard", false, "rubiks_panda/panda/C12"],
  ["Cube-08", "Rubik", "Solve scramble C21", "Hard", false, "rubiks_panda/panda/C21"],
  ["Cube-09", "Pocket", "Clockwise top turn", "Easy", true, "pocket_cube/aloha/C01"],
  ["Cube-10", "Pocket", "Clockwise top turn", "Hard", false, "pocket_cube/dual-sharpa/C01"],
  ["Cube-11", "Pocket", "Half-turn in two stages", "Easy", false, "pocket_cube/aloha/C08"],
  ["Cube-12", "Pocket", "Half-turn in two stages", "Hard", true, "pocket_cube/dual-sharpa/C08"],
  [
    "Home-01",
    "Tidy",
    "Three upright books onto the middle shelf",
    "Easy",
    false,
    "bookshelf/dual-panda/BooksTableD1",
  ],
  [
    "Home-02",
    "Tidy",
    "Unpack a neatly packed crate",
    "Easy",
    false,
    "bookshelf/dual-panda/ShelfCrateD1",
  ],
  [
    "Home-03",
    "Tidy",
    "One book on the wrong layer of a tidy shelf",
    "Hard",
    true,
    "bookshelf/dual-panda/ShelfCrateFixD1",
  ],
  [
    "Home-04",
    "Tidy",
    "Books, a trophy and one box",
    "Hard",
    false,
    "bookshelf/dual-panda/ShelfTableD1",
  ],
  [
    "Home-05",
    "Tidy",
    "Three books and two pieces of trash",
    "Hard",
    false,
    "bookshelf/dual-panda/TableCleanD1",
  ],
  [
    "Home-06",
    "Long",
    "Prepare a shared writing desk",
    "Easy",
    true,
    "maniskill_long_horizon/fetch/L1",
  ],
  [
    "Home-07",
    "Long",
    "Prepare a tea station for two",
    "Easy",
    false,
    "maniskill_long_horizon/fetch/L3",
  ],
  [
    "Home-08",
    "Long",
    "Unload cups and cutlery from the dishwasher",
    "Hard",
    false,
    "maniskill_long_horizon/fetch/L5",
  ],
  ["Home-09", "Long", "Pack a picnic basket", "Hard", false, "maniskill_long_horizon/fetch/L6"],
  [
    "Home-10",
    "Precise",
    "Insert three matching pegs",
    "Hard",
    false,
    "maniskill_geometry/panda/P1",
  ],
  [
    "Home-11",
    "Precise",
    "Seat a keyed electronics connector",
    "Easy",
    false,
    "maniskill_geometry/panda/P3",
  ],
  ["Home-12", "Precise", "Hang a mug by its handle", "Hard", true, "maniskill_geometry/panda/P5"],
  [
    "Home-13",
    "Precise",
    "Insert a book into a narrow shelf gap",
    "Easy",
    false,
    "maniskill_geometry/panda/P7",
  ],
  ["Home-14", "Dynamic", "Stop a rolling orange", "Easy", true, "maniskill_dynamics/panda/D1"],
  [
    "Home-15",
    "Dynamic",
    "Push a tall bottle without tipping",
    "Hard",
    false,
    "maniskill_dynamics/panda/D5",
  ],
  [
    "Home-16",
    "Dynamic",
    "Close a loaded drawer gently",
    "Hard",
    false,
    "maniskill_dynamics/panda/D6",
  ],
  [
    "Home-17",
    "Dynamic",
    "Slide a puck into a scoring zone",
    "Easy",
    false,
    "maniskill_dynamics/panda/D3",
  ],
];

/** All 100 EP-100 tasks in Table 20 order. */
export const EP100: readonly CatalogEntry[] = ROWS.map(
  ([index, type, title, split, ep20, envId]) => ({
    index,
    suite: index.split("-")[0] as EpSuite,
    type,
    title,
    split,
    ep20,
    envId,
    caseId: envId.split("/").at(-1)!,
  }),
);

/** The catalog entry of an EP-100 index, or an error naming it. */
export function catalogEntry(index: string): CatalogEntry {
  const entry = EP100.find((e) => e.index === index);
  if (!entry) throw new Error(`"${index}" is not an EP-100 index`);
  return entry;
}

/** Table 9: the native tier of every launcher case used in EP-100. */
export const LAUNCH_TIER: Record<string, number> = {};
const TIERS: Record<number, string> = {
  1: "A007 A008 A009 A010",
  2: "A001 A011 A012 A013 A017 A018 A023 A037 A075",
  3: "A002 A003 A004 A014 A019 A020 A024 A025 A026 A038 A039 A040 A044 A049 A050 A053 A054 A056 A059 A061 A064 A071 A076 A077 A080",
  4: "A005 A006 A015 A016 A021 A022 A027 A028 A029 A030 A041 A042 A043 A045 A048 A051 A052 A055 A057 A058 A060 A062 A063 A065 A066 A069 A070 A072 A073 A078 A079 A081 A082 A083 A084 A085 A086 A090 A091 A094",
  5: "A031 A032 A033 A034 A035 A036 A046 A047 A067 A068 A074 A087 A088 A089 A092 A093 A095 A096 A097 A098 A099 A100",
};
for (const [tier, ids] of Object.entries(TIERS)) {
  for (const id of ids.split(" ")) LAUNCH_TIER[id] = Number(tier);
}

/**
 * Table 18, Launch: ten times the native tier, plus the loaded-mode difficulty level D1-D5,
 * plus the number of required targets.
 */
export function launchWorkload(tier: number, loadedLevel: number, requiredTargets: number): number {
  return 10 * tier + loadedLevel + requiredTargets;
}

/** Table 10 / A.3: shortest legal solution length of a Hanoi case (levels 1-4 in each group). */
export function hanoiDepth(caseId: string): number {
  const n = Number(caseId.slice(1));
  return [1, 3, 9, 31][(n - 1) % 4]!;
}

/**
 * Table 18, Tower: twice the depth index (0-3 for 1, 3, 9, 31 moves), plus 1 for a physical
 * theme (every group but H01-H04), plus 2 for FR3-Sharpa or 3 for floating Sharpa.
 */
export function towerWorkload(caseId: string, embodiment: string): number {
  const depthIndex = [1, 3, 9, 31].indexOf(hanoiDepth(caseId));
  const theme = Number(caseId.slice(1)) > 4 ? 1 : 0;
  const hand = embodiment === "fr3-sharpa" ? 2 : embodiment === "floating-sharpa" ? 3 : 0;
  return 2 * depthIndex + theme + hand;
}
